package datalake.bench;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import datalake.dynamodb.ObjectItems;
import datalake.dynamodb.RecordItems;
import datalake.emulators.DatalakeStack;
import datalake.emulators.Emulators;
import datalake.emulators.SqsLambdaPoller;
import datalake.ingester.Ingester;
import datalake.ingester.IngesterClients;
import datalake.ingester.IngesterConfig;
import datalake.ingester.IngesterHandler;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Select;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * End-to-end ingest on the local stack (scripts/bench.sh, part 2): {@code --files} real S3 objects put
 * into moto, whose real notifications (S3 → SNS → SQS, raw delivery as the template subscribes) queue
 * up; then {@code --pollers} Lambda-style SQS pollers, each with its own ingester as a Lambda sandbox
 * would have, drain the queue; timed until every message is acknowledged and the table holds every
 * record. Pushed and drained in rounds of at most {@code --backlog} files (200), each round's push and
 * drain timed apart and the figures summed: moto's SQS is O(queue depth) per message sent and received,
 * so a single backlog of 10,000 made moto's time quadratic in the number of files. dynalite
 * runs in a JVM of its own, so the CPU time of each process, read from /proc, says where the time
 * goes: this JVM (the ingester, plus the pollers' receive/delete, which Lambda's event source mapping
 * does in AWS), moto (python), dynalite.
 *
 * <p>The ingester runs in this JVM, so the JVM's flags are the ingester's: scripts/bench.sh gives it the
 * template's JAVA_TOOL_OPTIONS for the ingester and the serial GC Lambda uses. The CPU of this JVM is
 * also read per kind of thread (JIT compilers, GC, the ingesters' pools), and this thread's polling of
 * the table is the benchmark's, counted apart.
 *
 * <p>usage: IngestBenchmark [--files N] [--pollers N] [--backlog N] [--clock-ticks N] [--json F]
 */
public final class IngestBenchmark {
    private static final long START = 1_704_067_200_000L;
    private static final long DAY = 86_400_000L;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private IngestBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = Options.parse(args);
        int files = Integer.parseInt(options.getOrDefault("files", "10000"));
        int pollers = Integer.parseInt(options.getOrDefault("pollers", "4"));
        int backlog = Integer.parseInt(options.getOrDefault("backlog", "200"));
        long ticks = Long.parseLong(options.getOrDefault("clock-ticks", "100"));
        // The ingester logs a JSON line per message on standard output; formatting it stays in the
        // measurement (Lambda ships it to CloudWatch), the 10,000 lines do not reach the terminal.
        PrintStream out = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));

        try (BenchStack bench = BenchStack.start("ingestbench")) {
            DatalakeStack stack = bench.stack;
            S3Client s3 = bench.s3;
            SqsClient sqs = bench.sqs;
            DynamoDbClient dynamo = bench.dynamo;
            out.printf(Locale.ROOT, "end-to-end ingest: %d files, %d pollers (batches of 10), %d cores,"
                    + " in rounds of at most %d files; JVM flags: %s%n",
                    files, pollers, Runtime.getRuntime().availableProcessors(), backlog, jvmFlags());

            Map<String, String> env = new HashMap<>(stack.ingester().environment());
            env.put("DATALAKE_S3_PATH_STYLE", "true");
            IngesterConfig config = IngesterConfig.fromEnvironment(env);
            Sandboxes sandboxes = Sandboxes.start(bench, config, pollers);

            // Rounds: push up to --backlog files and wait until all their notifications are queued, then
            // let the pollers drain that backlog until the table holds every record so far. moto 5.2.5's
            // SQS is O(queue depth) per SendMessage and three times that per message received (each
            // computes every queue attribute, counting all messages; sqs/models.py Queue.attributes), so
            // a backlog of all N files makes the run O(N^2) in moto; bounded rounds keep it linear.
            Tally tally = new Tally();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(30);
            for (int from = 0; from < files && System.nanoTime() < deadline; from += backlog) {
                int to = Math.min(files, from + backlog);
                push(bench, s3, sqs, stack, from, to, tally);
                drain(bench, sandboxes, sqs, dynamo, stack, from, to, deadline, tally);
            }
            long headThreadsCpu = cpuOfThreads("ingester-");
            sandboxes.close();
            String deadLetters = sqs.getQueueAttributes(r -> r.queueUrl(stack.deadLetterQueueUrl())
                    .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).attributes()
                    .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES);
            if (tally.items != files) {
                throw new IllegalStateException("after " + tally.seconds + " s only " + tally.items + " of " + files
                        + " records are in the table (" + tally.acknowledged + " messages acknowledged, " + tally.retried
                        + " handed back, " + deadLetters + " dead letters)");
            }
            IngestFigures figures = IngestFigures.of(tally, sandboxes.handlerCpu().get(), sandboxes.pollerCpu().get(),
                    headThreadsCpu, ticks);
            figures.print(out, files, tally, deadLetters, sandboxes.calls());
            if (options.containsKey("json")) {
                Files.writeString(Path.of(options.get("json")), figures.json(files, pollers, backlog, tally, sandboxes.calls()));
            }
        }
        System.exit(0);
    }

    /** What the rounds add up: wall and CPU time of the pushes and the drains, and what the drains saw. */
    static final class Tally {
        ProcessCpu pushCpu = ProcessCpu.ZERO;
        ProcessCpu cpu = ProcessCpu.ZERO;
        JvmThreadCpu threadsCpu = JvmThreadCpu.zero();
        double pushSeconds;
        double seconds;
        long items;
        long acknowledged;
        long retried;
        /** This thread's polling of the table: the benchmark's, not the ingester's. */
        long watchCpu;
    }

    /** The Lambda sandboxes: an ingester each, on clients whose AWS calls are counted, and the CPU their threads spend. */
    private record Sandboxes(List<Ingester> ingesters, CallCounts calls, S3Client s3, DynamoDbClient dynamo, SnsClient sns,
            AtomicLong handlerCpu, AtomicLong pollerCpu, AtomicLong acknowledged) implements AutoCloseable {
        static Sandboxes start(BenchStack bench, IngesterConfig config, int pollers) {
            // The ingesters' own clients, as in Lambda, each call counted (the pollers' SQS calls are Lambda's).
            CallCounts calls = new CallCounts();
            S3Client ingesterS3 = Emulators.clientsFor(bench.moto.endpoint())
                    .build(S3Client.builder().forcePathStyle(true), o -> o.addExecutionInterceptor(calls));
            DynamoDbClient ingesterDynamo = Emulators.clientsFor(bench.dynamoEndpoint)
                    .build(DynamoDbClient.builder(), o -> o.addExecutionInterceptor(calls));
            SnsClient ingesterSns = Emulators.clientsFor(bench.moto.endpoint())
                    .build(SnsClient.builder(), o -> o.addExecutionInterceptor(calls));
            List<Ingester> ingesters = new ArrayList<>();
            for (int i = 0; i < pollers; i++) {
                ingesters.add(Ingester.forAws(config, new IngesterClients(ingesterS3, ingesterDynamo, ingesterSns,
                        bench.sqs)).build());
            }
            return new Sandboxes(ingesters, calls, ingesterS3, ingesterDynamo, ingesterSns, new AtomicLong(),
                    new AtomicLong(), new AtomicLong());
        }

        @Override
        public void close() {
            ingesters.forEach(Ingester::close);
            s3.close();
            dynamo.close();
            sns.close();
        }
    }

    /** Puts files {@code from..to} and waits until their notifications are queued: the clients' part, not timed as ingest. */
    private static void push(BenchStack bench, S3Client s3, SqsClient sqs, DatalakeStack stack, int from, int to,
            Tally tally) throws Exception {
        ProcessCpu pushBefore = bench.cpu();
        long pushStarted = System.nanoTime();
        push(s3, stack.bucket(), from, to);
        awaitQueued(sqs, stack.ingestQueueUrl(), to - from);
        tally.pushSeconds += (System.nanoTime() - pushStarted) / 1e9;
        tally.pushCpu = tally.pushCpu.plus(bench.cpu().minus(pushBefore));
    }

    /** Ingest: from the pollers' start until every message is acknowledged and every record so far is in the table. */
    private static void drain(BenchStack bench, Sandboxes sandboxes, SqsClient sqs, DynamoDbClient dynamo,
            DatalakeStack stack, int from, int to, long deadline, Tally tally) throws Exception {
        List<SqsLambdaPoller> running = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        ProcessCpu before = bench.cpu();
        JvmThreadCpu threadsBefore = JvmThreadCpu.read();
        long started = System.nanoTime();
        long acknowledgedBefore = sandboxes.acknowledged().get();
        for (int i = 0; i < sandboxes.ingesters().size(); i++) {
            // The template's event source, without its batching window (the figures are throughput).
            SqsLambdaPoller poller = new SqsLambdaPoller(sqs, stack.ingestEventSource().withBatchingWindow(Duration.ZERO),
                    new CpuTimed(new IngesterHandler(sandboxes.ingesters().get(i)), sandboxes.handlerCpu(),
                            sandboxes.acknowledged()), stack.ingester());
            running.add(poller);
            Thread thread = new Thread(() -> {
                try {
                    poller.run();
                } finally {
                    sandboxes.pollerCpu().addAndGet(THREADS.getCurrentThreadCpuTime());
                }
            }, "bench-poller-" + i);
            threads.add(thread);
            thread.start();
        }
        // Done when every file's record is in the table (a notification delivered twice is
        // acknowledged twice, so the pollers' count alone can run ahead of the table). This
        // thread's polling of the table is the benchmark's, not the ingester's: counted apart.
        long watchStarted = THREADS.getCurrentThreadCpuTime();
        while (System.nanoTime() < deadline) {
            if (sandboxes.acknowledged().get() - acknowledgedBefore >= to - from
                    && (tally.items = count(dynamo, stack.recordsTable())) >= to) {
                break;
            }
            Thread.sleep(tally.items > from ? 500 : 50);
        }
        tally.watchCpu += THREADS.getCurrentThreadCpuTime() - watchStarted;
        tally.seconds += (System.nanoTime() - started) / 1e9;
        tally.cpu = tally.cpu.plus(bench.cpu().minus(before));
        tally.threadsCpu = tally.threadsCpu.plus(JvmThreadCpu.read().minus(threadsBefore));
        tally.acknowledged += sandboxes.acknowledged().get() - acknowledgedBefore;
        tally.retried += running.stream().mapToLong(SqsLambdaPoller::failedItems).sum();
        running.forEach(SqsLambdaPoller::stop);
        for (Thread thread : threads) {
            thread.join(5000);
        }
    }

    /** The -X options this JVM runs with (JIT and GC settings), for the record. */
    static String jvmFlags() {
        String flags = String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-XX:") || a.startsWith("-Xm") || a.startsWith("-Xs")).toList());
        return flags.isEmpty() ? "JVM defaults" : flags;
    }

    private static void push(S3Client s3, String bucket, int from, int to) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int first = t;
                done.add(pool.submit(() -> {
                    for (int i = from + first; i < to; i += 8) {
                        String id = String.format(Locale.ROOT, "bench%08d", i);
                        long start = START + (i % 30) * DAY + (i / 30) % DAY;
                        String metadata = "{\"version\":0,\"start\":" + start + ",\"end\":null,\"where\":\"host-" + (i % 10)
                                + "\",\"what\":\"bench\",\"id\":\"" + id + "\",\"hash\":\"0123456789abcdef0123456789abcdef\","
                                + "\"work_id\":\"job-" + (i % 100) + "\",\"path\":\"/bench/" + i + "\"}";
                        s3.putObject(r -> r.bucket(bucket).key(id + "/data").metadata(Map.of("datalake", metadata)),
                                RequestBody.fromString("bench file " + i));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    private static void awaitQueued(SqsClient sqs, String queueUrl, int files) throws InterruptedException {
        for (int attempt = 0; attempt < 600; attempt++) {
            String queued = sqs.getQueueAttributes(r -> r.queueUrl(queueUrl)
                    .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).attributes()
                    .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES);
            if (Integer.parseInt(queued) >= files) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("moto did not queue " + files + " notifications within 60 s");
    }

    /** The records in the table: its per-object items (one beside each object's records) are not counted. */
    private static long count(DynamoDbClient dynamo, String table) {
        return dynamo.scanPaginator(r -> r.tableName(table).select(Select.COUNT)
                        .filterExpression("#range <> :object")
                        .expressionAttributeNames(Map.of("#range", RecordItems.RANGE_KEY))
                        .expressionAttributeValues(Map.of(":object", AttributeValue.fromS(ObjectItems.RANGE_KEY_VALUE))))
                .stream().mapToLong(page -> page.count()).sum();
    }

    private static long cpuOfThreads(String prefix) {
        long total = 0;
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith(prefix)) {
                total += Math.max(0, THREADS.getThreadCpuTime(info.getThreadId()));
            }
        }
        return total;
    }

    /** The handler, its CPU time and the messages it acknowledged (not handed back) counted. */
    private record CpuTimed(RequestHandler<SQSEvent, SQSBatchResponse> handler, AtomicLong nanos, AtomicLong acknowledged)
            implements RequestHandler<SQSEvent, SQSBatchResponse> {
        @Override
        public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
            long started = THREADS.getCurrentThreadCpuTime();
            try {
                SQSBatchResponse response = handler.handleRequest(event, context);
                acknowledged.addAndGet(event.getRecords().size() - response.getBatchItemFailures().size());
                return response;
            } finally {
                nanos.addAndGet(THREADS.getCurrentThreadCpuTime() - started);
            }
        }
    }
}
