package datalake.bench;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import datalake.emulators.Emulators;
import datalake.emulators.SqsLambdaPoller;
import datalake.ingester.Ingester;
import datalake.ingester.IngesterClients;
import datalake.ingester.IngesterConfig;
import datalake.ingester.IngesterHandler;
import datalake.query.QueryApi;
import datalake.query.QueryClients;
import datalake.query.QueryConfig;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Upload-to-queryable latency through the real S3 → SNS → SQS path of the local stack
 * (scripts/bench.sh, part 6): objects are put into moto at a steady rate and then in one burst;
 * moto's own notifications reach the ingest queue; Lambda-style pollers ({@link SqsLambdaPoller}, each
 * with its own ingester, as a sandbox has) run the handler; and for each file, the time from its
 * PutObject's completion until a work_id query through the query function's own code
 * ({@link QueryApi} on dynalite) returns it.
 *
 * <p>Each file's path is cut in four, from clocks of this machine ({@link FileTrace}): the notification
 * (PutObject answered → the message's SentTimestamp in SQS: moto's S3 → SNS → SQS), the queue (→ the
 * handler starts on the batch: the pollers' wait and moto's receive), ours (→ the BatchWriteItem holding
 * the file's record is acknowledged: the handler, its HEAD and its write included), and the query (→ the
 * query answers with the file). The query for a file is asked as soon as its write is acknowledged, and
 * again every 2 ms until it answers with the file: the figure is when the file can first be read, not
 * how often a user polls.
 *
 * <p>usage: FreshnessBenchmark [--rate N] [--seconds N] [--burst N] [--pollers N] [--warmup N] [--json F]
 */
public final class FreshnessBenchmark {
    /** 2024-01-01: the files' start times count seconds from here, in one day bucket per 86,400 files. */
    private static final long START = 1_704_067_200_000L;
    private static final String WHAT = "fresh";

    private FreshnessBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = Options.parse(args);
        int rate = Integer.parseInt(options.getOrDefault("rate", "20"));
        int seconds = Integer.parseInt(options.getOrDefault("seconds", "120"));
        int burst = Integer.parseInt(options.getOrDefault("burst", "500"));
        int pollers = Integer.parseInt(options.getOrDefault("pollers", "4"));
        int warmup = Integer.parseInt(options.getOrDefault("warmup", "300"));
        PrintStream out = System.out;
        // The ingester and the query log a JSON line per message and request; formatting them stays in the
        // measurement (Lambda ships them to CloudWatch), the lines do not reach the terminal.
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));

        try (BenchStack bench = BenchStack.start("freshbench")) {
            FileTrace.Registry traces = new FileTrace.Registry();
            DelayQueue<FileTrace.Probe> probes = new DelayQueue<>();
            // The ingesters' clients: the same emulators, with the trace's interceptors (they note times only).
            S3Client ingesterS3 = Emulators.clientsFor(bench.moto.endpoint()).build(S3Client.builder().forcePathStyle(true),
                    o -> o.addExecutionInterceptor(traces.headTimer()));
            DynamoDbClient ingesterDynamo = Emulators.clientsFor(bench.dynamoEndpoint).build(DynamoDbClient.builder(),
                    o -> o.addExecutionInterceptor(traces.writeTimer(probes)));
            Map<String, String> env = new HashMap<>(bench.stack.ingester().environment());
            env.put("DATALAKE_S3_PATH_STYLE", "true");
            IngesterConfig config = IngesterConfig.fromEnvironment(env);
            List<Ingester> ingesters = new ArrayList<>();
            List<SqsLambdaPoller> running = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < pollers; i++) {
                Ingester ingester = Ingester.forAws(config,
                        new IngesterClients(ingesterS3, ingesterDynamo, bench.sns, bench.sqs)).build();
                ingesters.add(ingester);
                // The template's event source, without its batching window (what this measures is the rest).
                SqsLambdaPoller poller = new SqsLambdaPoller(bench.sqs, bench.stack.ingestEventSource()
                        .withBatchingWindow(Duration.ZERO), traces.handlerTimer(new IngesterHandler(ingester)), bench.stack.ingester());
                running.add(poller);
                Thread thread = new Thread(poller, "bench-poller-" + i);
                threads.add(thread);
                thread.start();
            }
            QueryApi api = QueryApi.forAws(QueryConfig.of(bench.stack.recordsTable(), bench.stack.bucket()),
                    new QueryClients(Emulators.clientsFor(bench.dynamoEndpoint).build(DynamoDbClient.builder()),
                            bench.s3, Emulators.presignerFor(bench.moto.endpoint()))).build();
            for (int i = 0; i < 2; i++) {
                Thread prober = new Thread(() -> probe(api, probes), "bench-prober-" + i);
                prober.setDaemon(true); // they stop with the JVM
                prober.start();
            }
            ExecutorService putters = Executors.newFixedThreadPool(8);
            out.printf(Locale.ROOT, "freshness: %d pollers (batches of 10, no batching window), %d cores; JVM flags: %s%n",
                    pollers, Runtime.getRuntime().availableProcessors(), IngestBenchmark.jvmFlags());
            try {
                int next = 0;
                // Warm-up: the sandboxes' code compiled, as Lambda's warm (or SnapStart-primed) ones are.
                List<FileTrace> warm = put(bench.s3, bench.stack.bucket(), putters, traces, next, warmup, 0);
                next += warmup;
                await(warm, Duration.ofMinutes(5));
                out.printf(Locale.ROOT, "  warm-up: %d files%n", warmup);

                ProcessCpu cpuBefore = bench.cpu();
                List<FileTrace> steady = put(bench.s3, bench.stack.bucket(), putters, traces, next, rate * seconds, rate);
                next += rate * seconds;
                await(steady, Duration.ofMinutes(10));
                ProcessCpu steadyCpu = bench.cpu().minus(cpuBefore);
                Map<String, Double> figures = new LinkedHashMap<>();
                report(out, String.format(Locale.ROOT, "steady %d files/s for %d s", rate, seconds), steady, "steady", figures);

                List<FileTrace> burstFiles = put(bench.s3, bench.stack.bucket(), putters, traces, next, burst, 0);
                await(burstFiles, Duration.ofMinutes(15));
                report(out, String.format(Locale.ROOT, "burst of %d files", burst), burstFiles, "burst", figures);
                out.printf(Locale.ROOT, "  CPU s during the steady phase: this JVM %.1f, moto %.1f, dynalite %.1f%n",
                        steadyCpu.self() / 100.0, steadyCpu.moto() / 100.0, steadyCpu.dynamo() / 100.0);
                if (options.containsKey("json")) {
                    StringBuilder json = new StringBuilder("{");
                    json.append("\"freshness_rate_per_s\":").append(rate).append(",\"freshness_seconds\":").append(seconds)
                            .append(",\"freshness_burst_files\":").append(burst).append(",\"freshness_pollers\":").append(pollers);
                    figures.forEach((k, v) -> json.append(",\"").append(k).append("\":").append(BenchStats.number(v)));
                    Files.writeString(Path.of(options.get("json")), json.append('}'));
                }
            } finally {
                running.forEach(SqsLambdaPoller::stop);
                for (Thread thread : threads) {
                    thread.join(5000);
                }
                putters.shutdownNow();
                ingesters.forEach(Ingester::close);
            }
        }
        System.exit(0);
    }

    /**
     * Puts files {@code from}..{@code from + count - 1}: at {@code rate} a second, or all at once (8 at a
     * time) when the rate is 0. Returns their traces, each stamped when its PutObject answered.
     */
    private static List<FileTrace> put(S3Client s3, String bucket, ExecutorService putters, FileTrace.Registry traces,
            int from, int count, int rate) throws Exception {
        List<FileTrace> files = new ArrayList<>(count);
        List<Future<?>> done = new ArrayList<>(count);
        long started = System.nanoTime();
        for (int i = from; i < from + count; i++) {
            if (rate > 0) {
                long due = started + (long) (i - from) * 1_000_000_000L / rate;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
            }
            String id = String.format(Locale.ROOT, "fresh%08d", i);
            FileTrace trace = traces.add(id);
            files.add(trace);
            long start = START + i * 1000L;
            // A unique work_id per file: the probe is a one-item work_id query. Ten feeds (where), files in
            // time order within each, as a steady feed sends them.
            String metadata = "{\"version\":0,\"start\":" + start + ",\"end\":null,\"where\":\"host-" + (i % 10)
                    + "\",\"what\":\"" + WHAT + "\",\"id\":\"" + id + "\",\"hash\":\"0123456789abcdef0123456789abcdef\","
                    + "\"work_id\":\"" + trace.workId() + "\",\"path\":\"/fresh/" + i + "\"}";
            done.add(putters.submit(() -> {
                s3.putObject(r -> r.bucket(bucket).key(id + "/data").metadata(Map.of("datalake", metadata)),
                        RequestBody.fromString("fresh file " + id));
                trace.putDone(System.nanoTime());
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        return files;
    }

    private static void await(List<FileTrace> files, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (files.stream().anyMatch(f -> !f.answered())) {
            if (System.nanoTime() > deadline) {
                long missing = files.stream().filter(f -> !f.answered()).count();
                throw new IllegalStateException(missing + " of " + files.size() + " files were not queryable after " + limit);
            }
            Thread.sleep(20);
        }
    }

    /** Asks the query API for each written file until it answers with it; every 2 ms while it does not. */
    private static void probe(QueryApi api, DelayQueue<FileTrace.Probe> probes) {
        while (true) {
            FileTrace.Probe probe;
            try {
                probe = probes.take();
            } catch (InterruptedException e) {
                return;
            }
            FileTrace trace = probe.trace();
            APIGatewayV2HTTPResponse response = api.handle(workIdQuery(trace.workId()));
            long answered = System.nanoTime();
            if (response.getStatusCode() == 200 && response.getBody().contains("\"id\":\"" + trace.id() + "\"")) {
                trace.queryAnswered(answered);
            } else {
                trace.missedProbe();
                probes.add(new FileTrace.Probe(trace, answered + 2_000_000L));
            }
        }
    }

    private static APIGatewayV2HTTPEvent workIdQuery(String workId) {
        return FilesQuery.event("what=" + WHAT + "&work_id=" + workId);
    }

    private static void report(PrintStream out, String label, List<FileTrace> files, String key, Map<String, Double> figures) {
        double[] total = files.stream().mapToDouble(FileTrace::totalMillis).sorted().toArray();
        double[] notify = files.stream().mapToDouble(FileTrace::notificationMillis).sorted().toArray();
        double[] queue = files.stream().mapToDouble(FileTrace::queueMillis).sorted().toArray();
        double[] ours = files.stream().mapToDouble(FileTrace::oursMillis).sorted().toArray();
        double[] head = files.stream().mapToDouble(FileTrace::headMillis).sorted().toArray();
        double[] write = files.stream().mapToDouble(FileTrace::writeMillis).sorted().toArray();
        double[] code = files.stream().mapToDouble(FileTrace::ownCodeMillis).sorted().toArray();
        double[] query = files.stream().mapToDouble(FileTrace::queryMillis).sorted().toArray();
        double[] handler = files.stream().mapToDouble(FileTrace::handlerMillis).sorted().toArray();
        long missed = files.stream().mapToLong(FileTrace::missedProbes).sum();
        out.printf(Locale.ROOT, "  %s: %d files, upload to queryable (ms)%n", label, files.size());
        out.printf(Locale.ROOT, "    %-52s %9s %9s %9s %9s%n", "", "p50", "p95", "p99", "max");
        row(out, "total: PutObject answered -> query returns the file", total);
        row(out, "  notification: -> in SQS (moto's S3 -> SNS -> SQS)", notify);
        row(out, "  queue: -> handler starts (pollers' wait, receive)", queue);
        row(out, "  ours: -> its write acknowledged (handler)", ours);
        row(out, "    of which the file's HEAD (moto)", head);
        row(out, "    of which the batch's BatchWriteItem (dynalite)", write);
        row(out, "    of which our code (the rest)", code);
        row(out, "  query: -> the query API returns it", query);
        row(out, "handler invocation, start to end", handler);
        out.printf(Locale.ROOT, "    queries that did not yet return the file: %d%n", missed);
        figures.put("freshness_" + key + "_p50_ms", pct(total, 0.50));
        figures.put("freshness_" + key + "_p95_ms", pct(total, 0.95));
        figures.put("freshness_" + key + "_p99_ms", pct(total, 0.99));
        figures.put("freshness_" + key + "_max_ms", total[total.length - 1]);
        figures.put("freshness_" + key + "_notification_p99_ms", pct(notify, 0.99));
        figures.put("freshness_" + key + "_queue_p50_ms", pct(queue, 0.50));
        figures.put("freshness_" + key + "_queue_p99_ms", pct(queue, 0.99));
        figures.put("freshness_" + key + "_ours_p50_ms", pct(ours, 0.50));
        figures.put("freshness_" + key + "_ours_p99_ms", pct(ours, 0.99));
        figures.put("freshness_" + key + "_ours_code_p99_ms", pct(code, 0.99));
        figures.put("freshness_" + key + "_head_p99_ms", pct(head, 0.99));
        figures.put("freshness_" + key + "_write_p99_ms", pct(write, 0.99));
        figures.put("freshness_" + key + "_query_p99_ms", pct(query, 0.99));
        figures.put("freshness_" + key + "_handler_p50_ms", pct(handler, 0.50));
        figures.put("freshness_" + key + "_handler_p99_ms", pct(handler, 0.99));
    }

    private static void row(PrintStream out, String label, double[] sorted) {
        out.printf(Locale.ROOT, "    %-52s %9.1f %9.1f %9.1f %9.1f%n", label, pct(sorted, 0.50), pct(sorted, 0.95),
                pct(sorted, 0.99), sorted[sorted.length - 1]);
    }

    /** The nearest-rank percentile of sorted values. */
    static double pct(double[] sorted, double p) {
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
