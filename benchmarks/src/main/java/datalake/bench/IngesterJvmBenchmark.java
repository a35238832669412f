package datalake.bench;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import datalake.emulators.LocalLambdaContext;
import datalake.ingester.Ingester;
import datalake.ingester.IngesterClients;
import datalake.ingester.IngesterConfig;
import datalake.ingester.IngesterHandler;
import datalake.lambda.SdkClientFactory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The ingester's CPU per file after warm-up, under the JVM settings being compared (docs/DESIGN.md, the
 * JVM decision): the handler as Lambda runs it, on SDK clients whose wire is {@link SimulatedAws} (every
 * call answered after a 5 ms round trip, as in one region), batches of 10 SQS messages of raw S3 events
 * (ten feeds), in a fresh JVM per run, pinned to one CPU when taskset exists (a 1,024 MB function has
 * about 0.6 of one), the settings alternating run after run so that the machine's load falls on both.
 * Per run: the CPU of the whole process while it warms up and once warm (JIT compilers and GC
 * included), of the handler's threads once warm, and the handler's wall time per batch.
 *
 * <p>usage: IngesterJvmBenchmark --compare "label|JVM flags" [--compare ...] [--rounds N] [--warmup N]
 * [--batches N] [--round-trip-ms N] [--json F]
 */
public final class IngesterJvmBenchmark {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final int BATCH = 10;

    private IngesterJvmBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--child")) {
            child(Options.parse(Arrays.copyOfRange(args, 1, args.length)));
            return;
        }
        List<String[]> configurations = new ArrayList<>();
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--compare") && i + 1 < args.length) {
                configurations.add(args[++i].split("\\|", 2));
            } else if (args[i].startsWith("--") && i + 1 < args.length) {
                options.put(args[i].substring(2), args[++i]);
            } else {
                throw new IllegalArgumentException("usage: IngesterJvmBenchmark --compare \"label|flags\" [--compare ...]"
                        + " [--rounds N] [--warmup N] [--batches N] [--round-trip-ms N] [--json F]");
            }
        }
        int rounds = Integer.parseInt(options.getOrDefault("rounds", "3"));
        String warmup = options.getOrDefault("warmup", "1000");
        String batches = options.getOrDefault("batches", "1000");
        String roundTrip = options.getOrDefault("round-trip-ms", "5");
        boolean pin = Files.isExecutable(Path.of("/usr/bin/taskset"));
        System.out.printf(Locale.ROOT, "ingester JVM settings: batches of %d, %s ms per AWS call, %s warm-up and %s"
                + " measured batches per run, %d rounds, %s%n", BATCH, roundTrip, warmup, batches, rounds,
                pin ? "each run pinned to CPU 1" : "not pinned (no taskset)");
        Map<String, List<Map<String, Double>>> results = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            for (String[] configuration : configurations) {
                List<String> command = new ArrayList<>();
                if (pin) {
                    command.addAll(List.of("/usr/bin/taskset", "-c", "1"));
                }
                command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
                command.addAll(Arrays.stream(configuration[1].trim().split("\\s+")).filter(s -> !s.isEmpty()).toList());
                command.addAll(List.of("-cp", System.getProperty("java.class.path"), IngesterJvmBenchmark.class.getName(),
                        "--child", "--warmup", warmup, "--batches", batches, "--round-trip-ms", roundTrip));
                Map<String, Double> run = runChild(command);
                results.computeIfAbsent(configuration[0], k -> new ArrayList<>()).add(run);
                System.out.printf(Locale.ROOT, "  round %d %-10s warm-up CPU %6.0f ms (%.2f ms/file); warm: process %.3f"
                        + " ms/file (handler threads %.3f, JIT %.3f, GC %.3f), wall %.1f ms/batch (p99 %.1f)%n",
                        round + 1, configuration[0], run.get("warmup_cpu_ms"), run.get("warmup_cpu_ms_per_file"),
                        run.get("cpu_ms_per_file"), run.get("handler_cpu_ms_per_file"), run.get("jit_ms_per_file"),
                        run.get("gc_ms_per_file"), run.get("wall_ms_per_batch"), run.get("wall_p99_ms_per_batch"));
            }
        }
        StringBuilder json = new StringBuilder("{");
        System.out.println("  medians of the rounds:");
        for (Map.Entry<String, List<Map<String, Double>>> entry : results.entrySet()) {
            String label = entry.getKey();
            for (String figure : entry.getValue().get(0).keySet()) {
                double[] values = entry.getValue().stream().mapToDouble(r -> r.get(figure)).sorted().toArray();
                double median = values[values.length / 2];
                json.append(json.length() > 1 ? "," : "").append("\"jvm_").append(label).append('_').append(figure)
                        .append("\":").append(String.format(Locale.ROOT, "%.3f", median));
                System.out.printf(Locale.ROOT, "    %-10s %-28s %10.3f  (%s)%n", label, figure, median,
                        Arrays.stream(values).mapToObj(v -> String.format(Locale.ROOT, "%.3f", v))
                                .reduce((a, b) -> a + " " + b).orElse(""));
            }
        }
        if (options.containsKey("json")) {
            Files.writeString(Path.of(options.get("json")), json.append('}'));
        }
    }

    private static Map<String, Double> runChild(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Map<String, Double> figures = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("RESULT ")) {
                    figures = new LinkedHashMap<>();
                    for (String pair : line.substring(7).trim().split(" +", -1)) {
                        String[] kv = pair.split("=", 2);
                        figures.put(kv[0], Double.parseDouble(kv[1]));
                    }
                }
            }
        }
        if (process.waitFor() != 0 || figures == null) {
            throw new IllegalStateException("the run " + command + " failed (exit " + process.exitValue() + ")");
        }
        return figures;
    }

    private static void child(Map<String, String> options) throws Exception {
        int warmup = Integer.parseInt(options.get("warmup"));
        int batches = Integer.parseInt(options.get("batches"));
        Duration roundTrip = Duration.ofMillis(Long.parseLong(options.get("round-trip-ms")));
        PrintStream results = System.out;
        // The function's JSON log lines are formatted as in Lambda, and dropped here.
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));

        SimulatedAws aws = new SimulatedAws(roundTrip);
        IngesterHandler handler = handler(aws);

        long processStart = processCpuNanos();
        long n = 0;
        for (int b = 0; b < warmup; b++) {
            n = invoke(handler, n);
        }
        long warmupCpu = processCpuNanos() - processStart;

        JvmThreadCpu threadsBefore = JvmThreadCpu.read();
        long processBefore = processCpuNanos();
        long handlerCpu = 0;
        long[] walls = new long[batches];
        for (int b = 0; b < batches; b++) {
            long cpu = THREADS.getCurrentThreadCpuTime();
            long started = System.nanoTime();
            n = invoke(handler, n);
            walls[b] = System.nanoTime() - started;
            handlerCpu += THREADS.getCurrentThreadCpuTime() - cpu;
        }
        long processCpu = processCpuNanos() - processBefore;
        JvmThreadCpu threads = JvmThreadCpu.read().minus(threadsBefore);
        double ticks = 1e9 / 100;
        double files = (double) batches * BATCH;
        Arrays.sort(walls);
        double poolCpu = threads.get(JvmThreadCpu.Kind.INGESTER_POOL) * ticks;
        results.printf(Locale.ROOT, "RESULT warmup_cpu_ms=%.1f warmup_cpu_ms_per_file=%.4f cpu_ms_per_file=%.4f"
                        + " handler_cpu_ms_per_file=%.4f jit_ms_per_file=%.4f gc_ms_per_file=%.4f wall_ms_per_batch=%.3f"
                        + " wall_p99_ms_per_batch=%.3f calls_per_batch=%.2f%n",
                warmupCpu / 1e6, warmupCpu / 1e6 / (warmup * BATCH), processCpu / 1e6 / files,
                (handlerCpu + poolCpu) / 1e6 / files, threads.get(JvmThreadCpu.Kind.JIT) * ticks / 1e6 / files,
                threads.get(JvmThreadCpu.Kind.GC) * ticks / 1e6 / files, walls[batches / 2] / 1e6,
                walls[(int) Math.min(batches - 1, Math.ceil(0.99 * batches) - 1)] / 1e6,
                (double) aws.calls() / (warmup + batches));
        System.exit(0);
    }

    /** The handler as Lambda builds it (told the batch size, as the template does), its SDK clients on simulated AWS. */
    static IngesterHandler handler(SimulatedAws aws) {
        SdkClientFactory factory = SdkClientFactory.of(aws,
                StaticCredentialsProvider.create(AwsBasicCredentials.create("bench", "bench")), Region.US_EAST_1);
        IngesterConfig config = IngesterConfig.fromEnvironment(Map.of(
                "AWS_REGION", "us-east-1",
                "AWS_LAMBDA_FUNCTION_NAME", "datalake-ingester",
                "DATALAKE_DYNAMODB_TABLE", "datalake-records",
                "DATALAKE_LATEST_TABLE", "datalake-latest",
                "DATALAKE_REPORT_TOPIC_ARN", "arn:aws:sns:us-east-1:000000000000:datalake-reports",
                "DATALAKE_DLQ_URL", "https://sqs.us-east-1.amazonaws.com/000000000000/datalake-ingest-dlq",
                "DATALAKE_STORAGE_URL", "s3://datalake-bench",
                "DATALAKE_INGEST_BATCH_SIZE", Integer.toString(BATCH)));
        IngesterClients clients = new IngesterClients(factory.build(S3Client.builder()), factory.build(DynamoDbClient.builder()),
                factory.build(SnsClient.builder()), factory.build(SqsClient.builder()));
        return new IngesterHandler(Ingester.forAws(config, clients).build());
    }

    /** One batch of ten new files; returns the next file number. */
    static long invoke(IngesterHandler handler, long next) {
        List<SQSEvent.SQSMessage> messages = new ArrayList<>(BATCH);
        for (int i = 0; i < BATCH; i++, next++) {
            SQSEvent.SQSMessage message = new SQSEvent.SQSMessage();
            message.setMessageId("m" + next);
            message.setEventSource("aws:sqs");
            message.setBody("{\"Records\":[{\"eventVersion\":\"2.1\",\"eventSource\":\"aws:s3\",\"awsRegion\":\"us-east-1\","
                    + "\"eventTime\":\"2024-01-01T00:00:00.000Z\",\"eventName\":\"ObjectCreated:Put\",\"s3\":{\"s3SchemaVersion\":\"1.0\","
                    + "\"bucket\":{\"name\":\"datalake-bench\",\"arn\":\"arn:aws:s3:::datalake-bench\"},"
                    + "\"object\":{\"key\":\"" + next + "/data\",\"size\":1024,\"sequencer\":\"0055AED6DCD90281E5\"}}}]}");
            messages.add(message);
        }
        SQSEvent event = new SQSEvent();
        event.setRecords(messages);
        // A context per invocation: its remaining time counts from its creation, as Lambda's does.
        SQSBatchResponse response = handler.handleRequest(event,
                new LocalLambdaContext("datalake-ingester", Duration.ofSeconds(60), 1024));
        if (!response.getBatchItemFailures().isEmpty()) {
            throw new IllegalStateException(response.getBatchItemFailures().size() + " messages failed in a simulated batch");
        }
        return next;
    }

    /** This process's CPU time (all threads, JIT and GC included), from /proc/self/stat, in nanoseconds. */
    private static long processCpuNanos() throws IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ", -1);
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10_000_000L;
    }
}
