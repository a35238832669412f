package datalake.query;

import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import datalake.emulators.DatalakeStack;
import datalake.emulators.Emulators;
import datalake.lambda.JsonLog;
import datalake.lambda.SdkClientFactory;
import datalake.records.Metadata;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A 30-day time query against a 1-day one with the same number of files in every day bucket, through
 * {@link QueryApi} on dynalite: the 30-day query reads its buckets concurrently, so it should take
 * at most twice as long. Run with {@code scripts/bench-query.sh}; prints both figures and their ratio.
 *
 * <p>On dynalite as it is (over loopback: every Query costs only CPU, the emulator's and the client's,
 * on this machine's cores, which no fan-out can overlap), and with a simulated round
 * trip before every DynamoDB call ({@code --latency-ms}, 5 and 10 by default; an in-region Query takes
 * a few milliseconds), which is what the fan-out exists to overlap. Each mode also prints the 30-day
 * query reading its buckets one after another, for reference, and the CPU time of each query split
 * between dynalite (its process, from /proc) and our side: the emulator's CPU for 30 Query calls,
 * spread over every core, is a floor no fan-out can go below, printed as a ratio to the 1-day median.
 *
 * <p>Also a work-id query (the same 90 files through the GSI) and a full pagination of
 * {@code --pagination-files} files (10,000 by default, 30 days, 100 a page) by time and by work id:
 * medians and p95 of a page and of the whole walk. {@code --json FILE} writes every figure for
 * scripts/bench.sh.
 */
public final class QueryBenchmark {
    private static final int FILES_PER_BUCKET = 3;
    private static final int BUCKETS = 30;
    private static final String WORK_ID = "job-bench";
    private static final String PAGE_WORK_ID = "job-page";
    /** The figures for --json, in the order they were measured. */
    private static final Map<String, Double> FIGURES = new LinkedHashMap<>();

    private QueryBenchmark() {
    }

    public static void main(String[] args) {
        int[] latencies = {5, 10};
        int iterations = 200;
        int paginationFiles = 10_000;
        int paginationRuns = 5;
        String json = null;
        int clockTicks = 100;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--latency-ms") && i + 1 < args.length) {
                latencies = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
            } else if (args[i].equals("--iterations") && i + 1 < args.length) {
                iterations = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--pagination-files") && i + 1 < args.length) {
                paginationFiles = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--pagination-runs") && i + 1 < args.length) {
                paginationRuns = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--json") && i + 1 < args.length) {
                json = args[++i];
            } else if (args[i].equals("--clock-ticks") && i + 1 < args.length) {
                clockTicks = Integer.parseInt(args[++i]);
            } else {
                throw new IllegalArgumentException("usage: QueryBenchmark [--latency-ms N[,N...]] [--iterations N]"
                        + " [--pagination-files N] [--pagination-runs N] [--json FILE] [--clock-ticks HZ]");
            }
        }
        Emulators aws = Emulators.shared();
        EmulatorCpu emulatorCpu = new EmulatorCpu(aws.dynalite().pid(), clockTicks);
        // The function's own HTTP client (a kept connection per concurrent bucket read), not the SDK's default.
        SdkClientFactory clients = SdkClientFactory.of(SdkClientFactory.functionHttpClient(QueryClients.CONCURRENT_CALLS),
                aws.dynamoDbClients().credentials(), Emulators.REGION).withEndpoint(aws.dynamoDbEndpoint());
        try (DynamoDbClient dynamoDb = clients.build(DynamoDbClient.builder())) {
            DatalakeStack names = DatalakeStack.builder(aws).prefix(DatalakeStack.uniquePrefix("bench")).tablesOnly().build();
            writeFiles(aws, names);
            writePaginationFiles(aws, names, paginationFiles);
            System.out.printf(Locale.ROOT, "%d files in each of %d day buckets; %d runs of each query after warm-up;"
                    + " %d cores%n", FILES_PER_BUCKET, BUCKETS, iterations, Runtime.getRuntime().availableProcessors());
            run("dynalite, no added latency", dynamoDb, names, iterations, "raw", emulatorCpu);
            paginate(dynamoDb, names, paginationFiles, paginationRuns, "raw");
            for (int latency : latencies) {
                try (DynamoDbClient slow = clients.build(DynamoDbClient.builder(),
                        c -> c.addExecutionInterceptor(new Latency(latency)))) {
                    String mode = "latency" + latency + "ms";
                    run("dynalite + " + latency + " ms per call (a network round trip)", slow, names, iterations, mode,
                            emulatorCpu);
                    paginate(slow, names, paginationFiles, paginationRuns, mode);
                }
            }
            if (json != null) {
                StringBuilder text = new StringBuilder("{");
                FIGURES.forEach((k, v) -> text.append(text.length() > 1 ? "," : "").append('"').append(k).append("\":")
                        .append(String.format(Locale.ROOT, "%.2f", v)));
                Files.writeString(Path.of(json), text.append('}'));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {

            aws.close();
        }
    }

    private static void writeFiles(Emulators aws, DatalakeStack names) {
        List<Metadata> files = new ArrayList<>();
        for (int bucket = 0; bucket < BUCKETS; bucket++) {
            for (int n = 0; n < FILES_PER_BUCKET; n++) {
                files.add(TestFiles.file(String.format("b%02d-%d", bucket, n), "syslog", "web",
                        T0 + bucket * DAY + (n + 1) * (DAY / (FILES_PER_BUCKET + 1)), null, WORK_ID));
            }
        }
        QueryHarness.writeRecords(aws.dynamoDb(), names.recordsTable(), TestFiles.records(files));
    }

    /** {@code files} files of WHAT "page", spread over 30 day buckets, all with one work id. */
    private static void writePaginationFiles(Emulators aws, DatalakeStack names, int files) {
        List<Metadata> all = new ArrayList<>(files);
        for (int i = 0; i < files; i++) {
            all.add(TestFiles.file(String.format("p%06d", i), "page", "host-" + (i % 10),
                    T0 + (i % BUCKETS) * DAY + (i / BUCKETS) * 1000L, null, PAGE_WORK_ID));
        }
        QueryHarness.writeRecords(aws.dynamoDb(), names.recordsTable(), TestFiles.records(all));
    }

    /** Walks every page of a 30-day time query and of a work-id query over the pagination files. */
    private static void paginate(DynamoDbClient dynamoDb, DatalakeStack names, int files, int runs, String mode) {
        QueryConfig config = QueryConfig.of(names.recordsTable(), names.bucket());
        QueryApi api = api(config, dynamoDb).build();
        Map<String, String> queries = new LinkedHashMap<>();
        queries.put("time", "what=page&start=" + T0 + "&end=" + (T0 + BUCKETS * DAY - 1));
        queries.put("work_id", "what=page&work_id=" + PAGE_WORK_ID);
        for (Map.Entry<String, String> query : queries.entrySet()) {
            walk(api, query.getValue(), files); // warm-up, and the check that every file comes once
            List<Long> pages = new ArrayList<>();
            long[] totals = new long[runs];
            for (int r = 0; r < runs; r++) {
                long started = System.nanoTime();
                pages.addAll(walk(api, query.getValue(), files));
                totals[r] = System.nanoTime() - started;
            }
            long[] page = pages.stream().mapToLong(Long::longValue).toArray();
            String key = "query_pagination_" + query.getKey() + "_" + mode;
            FIGURES.put(key + "_total_ms", median(totals));
            FIGURES.put(key + "_total_p95_ms", percentile(totals, 0.95));
            FIGURES.put(key + "_page_ms", median(page));
            FIGURES.put(key + "_page_p95_ms", percentile(page, 0.95));
            System.out.printf(Locale.ROOT, "  full pagination by %-7s (%d files, %d pages): total median %8.1f ms, p95 %8.1f ms;"
                            + " a page median %6.2f ms, p95 %6.2f ms%n", query.getKey(), files, page.length / runs,
                    median(totals), percentile(totals, 0.95), median(page), percentile(page, 0.95));
        }
    }

    /** The time of each page of one full walk; fails unless every file came exactly once. */
    private static List<Long> walk(QueryApi api, String query, int files) {
        List<Long> times = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        String rawQuery = query;
        while (true) {
            long started = System.nanoTime();
            APIGatewayV2HTTPResponse response = api.handle(Events.get("/v0/archive/files/", rawQuery));
            times.add(System.nanoTime() - started);
            JsonNode body = Events.body(response);
            if (response.getStatusCode() != 200) {
                throw new IllegalStateException("page " + times.size() + " answered " + response.getStatusCode());
            }
            for (JsonNode record : body.path("records")) {
                if (!seen.add(record.path("url").asText())) {
                    throw new IllegalStateException("a file came twice: " + record.path("url").asText());
                }
            }
            if (body.path("next").isNull()) {
                break;
            }
            rawQuery = URI.create(body.path("next").asText()).getRawQuery();
        }
        if (seen.size() != files) {
            throw new IllegalStateException("the walk returned " + seen.size() + " files, not " + files);
        }
        return times;
    }

    private static void run(String title, DynamoDbClient dynamoDb, DatalakeStack names, int iterations, String mode,
            EmulatorCpu emulatorCpu) {
        QueryConfig config = QueryConfig.of(names.recordsTable(), names.bucket());
        QueryApi api = api(config, dynamoDb).build();
        // For reference only: the same code reading one bucket after another (waves of one bucket).
        TimeQueryPager.Limits limits = TimeQueryPager.Limits.API;
        QueryApi sequential = api(config, dynamoDb)
                .limits(new TimeQueryPager.Limits(100, 1, 256, limits.readLimit(), limits.minShare())).build();
        // 1 day: the bucket of day 10. 30 days: the buckets of days 0 to 29.
        String oneDay = "what=syslog&start=" + (T0 + 10 * DAY) + "&end=" + (T0 + 11 * DAY - 1);
        String thirtyDays = "what=syslog&start=" + T0 + "&end=" + (T0 + 30 * DAY - 1);
        check(api, oneDay, FILES_PER_BUCKET);
        check(api, thirtyDays, BUCKETS * FILES_PER_BUCKET);
        check(sequential, thirtyDays, BUCKETS * FILES_PER_BUCKET);
        String workId = "what=syslog&work_id=" + WORK_ID;
        check(api, workId, BUCKETS * FILES_PER_BUCKET);
        // The SDK and the query code take a few thousand calls to be compiled, dynalite's JavaScript too.
        for (int i = 0; i < 3 * iterations; i++) {
            time(api, oneDay);
            time(api, thirtyDays);
            time(api, workId);
        }
        long[] one = new long[iterations];
        long[] thirty = new long[iterations];
        long[] byWorkId = new long[iterations];
        long[] oneByOne = new long[Math.max(10, iterations / 10)];
        for (int i = 0; i < iterations; i++) {
            one[i] = time(api, oneDay);
            thirty[i] = time(api, thirtyDays);
            byWorkId[i] = time(api, workId);
        }
        for (int i = 0; i < oneByOne.length; i++) {
            oneByOne[i] = time(sequential, thirtyDays);
        }
        CpuSplit oneCpu = CpuSplit.measure(() -> time(api, oneDay), iterations, emulatorCpu);
        CpuSplit thirtyCpu = CpuSplit.measure(() -> time(api, thirtyDays), iterations, emulatorCpu);
        double oneMedian = median(one);
        double thirtyMedian = median(thirty);
        System.out.printf(Locale.ROOT, "%s:%n", title);
        System.out.printf(Locale.ROOT, "  1-day query  (1 bucket,   %2d files): median %7.2f ms, p90 %7.2f ms, p95 %7.2f ms%n",
                FILES_PER_BUCKET, oneMedian, percentile(one, 0.9), percentile(one, 0.95));
        System.out.printf(Locale.ROOT, "  30-day query (%d buckets, %2d files): median %7.2f ms, p90 %7.2f ms, p95 %7.2f ms%n",
                BUCKETS, BUCKETS * FILES_PER_BUCKET, thirtyMedian, percentile(thirty, 0.9), percentile(thirty, 0.95));
        System.out.printf(Locale.ROOT, "  work_id query (GSI,        %2d files): median %7.2f ms, p90 %7.2f ms, p95 %7.2f ms%n",
                BUCKETS * FILES_PER_BUCKET, median(byWorkId), percentile(byWorkId, 0.9), percentile(byWorkId, 0.95));
        FIGURES.put("query_1d_ms_" + mode, oneMedian);
        FIGURES.put("query_1d_p95_ms_" + mode, percentile(one, 0.95));
        FIGURES.put("query_30d_ms_" + mode, thirtyMedian);
        FIGURES.put("query_30d_p95_ms_" + mode, percentile(thirty, 0.95));
        FIGURES.put("query_work_id_ms_" + mode, median(byWorkId));
        FIGURES.put("query_work_id_p95_ms_" + mode, percentile(byWorkId, 0.95));
        FIGURES.put("query_30d_over_1d_" + mode, thirtyMedian / oneMedian);
        System.out.printf(Locale.ROOT, "  ratio 30-day / 1-day: %.2f (target <= 2.00)%n", thirtyMedian / oneMedian);
        // dynalite's work for 30 Query calls cannot take less than its CPU time spread over every
        // core; with the added latency, that comes after the wait. The 30-day query cannot be faster.
        int cores = Runtime.getRuntime().availableProcessors();
        double floor = latencyOf(mode) + thirtyCpu.emulatorMs() / cores;
        double withOurs = floor + thirtyCpu.oursMs() / cores;
        System.out.printf(Locale.ROOT, "  CPU per query: 1-day  dynalite %5.2f ms, ours %5.2f ms%n",
                oneCpu.emulatorMs(), oneCpu.oursMs());
        System.out.printf(Locale.ROOT, "                 30-day dynalite %5.2f ms, ours %5.2f ms (%.2f + %.2f ms a bucket)%n",
                thirtyCpu.emulatorMs(), thirtyCpu.oursMs(), thirtyCpu.emulatorMs() / BUCKETS, thirtyCpu.oursMs() / BUCKETS);
        System.out.printf(Locale.ROOT, "  30-day floor on %d cores%s: dynalite's CPU alone %.2f ms = %.2f x the 1-day median;"
                        + " with ours %.2f ms = %.2f x%n", cores, latencyOf(mode) > 0 ? ", after the added latency" : "",
                floor, floor / oneMedian, withOurs, withOurs / oneMedian);
        FIGURES.put("query_1d_cpu_emulator_ms_" + mode, oneCpu.emulatorMs());
        FIGURES.put("query_1d_cpu_ours_ms_" + mode, oneCpu.oursMs());
        FIGURES.put("query_30d_cpu_emulator_ms_" + mode, thirtyCpu.emulatorMs());
        FIGURES.put("query_30d_cpu_ours_ms_" + mode, thirtyCpu.oursMs());
        FIGURES.put("query_30d_over_1d_floor_emulator_" + mode, floor / oneMedian);
        FIGURES.put("query_30d_over_1d_floor_" + mode, withOurs / oneMedian);
        System.out.printf(Locale.ROOT, "  (reference: the 30-day query reading its buckets one after another: median %.2f ms)%n",
                median(oneByOne));
    }

    /** The API as the function builds it on this client, reading no files (its log on standard output, as deployed). */
    static QueryApi.Builder api(QueryConfig config, DynamoDbClient dynamoDb) {
        UnreadableItems unreadable = new UnreadableItems(JsonLog.toStandardOutput(QueryApi.LOGGER), config.functionName());
        return QueryApi.builder().config(config).records(new DynamoRecordsTable(dynamoDb, config.recordsTable(), unreadable))
                .files(new NoFiles());
    }

    /** The latency a mode adds to every call: "raw" none, "latency5ms" 5 ms. */
    private static int latencyOf(String mode) {
        return mode.startsWith("latency") ? Integer.parseInt(mode.replaceAll("\\D", "")) : 0;
    }

    /** The CPU time of dynalite's process, from /proc/PID/stat (user and system clock ticks). */
    record EmulatorCpu(long pid, int clockTicks) {
        double millis() {
            try {
                String[] fields = Files.readString(Path.of("/proc", Long.toString(pid), "stat"))
                        .replaceFirst("^.*\\) ", "").split(" ");
                // Fields 14 and 15 of stat(5), user and system time; 3 is the first after the command.
                return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 1000.0 / clockTicks;
            } catch (IOException e) {
                return Double.NaN; // not Linux: the split says NaN rather than a made-up figure
            }
        }
    }

    /**
     * CPU time per query while a query runs {@code runs} times: dynalite's (its process) and ours (this
     * JVM's caller and bucket readers: the SDK and the query code). The JVM's GC and JIT threads are not
     * among the threads it lists, so they are in neither.
     */
    record CpuSplit(double emulatorMs, double oursMs) {
        static CpuSplit measure(Runnable query, int runs, EmulatorCpu emulator) {
            Map<String, Long> before = threadCpu();
            double emulatorBefore = emulator.millis();
            for (int i = 0; i < runs; i++) {
                query.run();
            }
            double emulatorMs = (emulator.millis() - emulatorBefore) / runs;
            Map<String, Long> after = threadCpu();
            double[] ours = new double[1];
            after.forEach((name, nanos) -> {
                if (name.startsWith("main#") || name.startsWith("datalake-query-read-")) {
                    ours[0] += (nanos - before.getOrDefault(name, 0L)) / 1e6 / runs;
                }
            });
            return new CpuSplit(emulatorMs, ours[0]);
        }

        /** CPU nanoseconds by thread (name and id: pools reuse names). */
        private static Map<String, Long> threadCpu() {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            Map<String, Long> cpu = new HashMap<>();
            for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
                long nanos = info == null ? -1 : threads.getThreadCpuTime(info.getThreadId());
                if (nanos >= 0) {
                    cpu.put(info.getThreadName() + "#" + info.getThreadId(), nanos);
                }
            }
            return cpu;
        }
    }

    private static void check(QueryApi api, String query, int expected) {
        APIGatewayV2HTTPResponse response = api.handle(Events.get("/v0/archive/files/", query));
        int count = Events.body(response).path("records").size();
        if (response.getStatusCode() != 200 || count != expected || !Events.body(response).path("next").isNull()) {
            throw new IllegalStateException("expected one page of " + expected + " records, got " + count
                    + " (status " + response.getStatusCode() + ")");
        }
    }

    private static long time(QueryApi api, String query) {
        long started = System.nanoTime();
        api.handle(Events.get("/v0/archive/files/", query));
        return System.nanoTime() - started;
    }

    static double median(long[] nanos) {
        return percentile(nanos, 0.5);
    }

    static double percentile(long[] nanos, double p) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.min(sorted.length - 1, Math.round(p * (sorted.length - 1)))] / 1e6;
    }

    /** Sleeps before each request is sent, as a network round trip would delay it. */
    record Latency(int millis) implements ExecutionInterceptor {
        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            try {
                Thread.sleep(Duration.ofMillis(millis));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static final class NoFiles implements ObjectStore {
        @Override
        public Optional<Map<String, String>> userMetadata(String bucket, String key) {
            return Optional.empty();
        }

        @Override
        public Optional<ObjectStart> start(String bucket, String key, int length) {
            return Optional.empty();
        }

        @Override
        public URI presignedGet(String bucket, String key, Duration validity, ContentHeaders headers) {
            throw new UnsupportedOperationException("the benchmark reads no files");
        }
    }
}
