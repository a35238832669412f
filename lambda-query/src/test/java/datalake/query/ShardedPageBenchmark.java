package datalake.query;

import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import datalake.dynamodb.CachedShardMap;
import datalake.dynamodb.ShardMapTable;
import datalake.emulators.DatalakeStack;
import datalake.emulators.Emulators;
import datalake.emulators.HttpApiServer;
import datalake.lambda.JsonLog;
import datalake.lambda.SdkClientFactory;
import datalake.records.Metadata;
import datalake.records.Record;
import datalake.records.ShardMap;
import datalake.records.TimeBuckets;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What a page of a sharded day costs against the same page unsharded (issue 31): Queries, read units and
 * time per page, through {@link QueryApi} on dynalite with the shard map read from the records table as the
 * function reads it. One WHAT per shard count S ({@code s1}: the plain key, {@code s4}, {@code s16}), each
 * with the same files over 40 WHEREs, sharded from its first day:
 * <ul>
 * <li>{@code day}: every 100-record page of a day of {@code --day-files} (4,000);
 * <li>{@code 30d}: the first {@code --month-pages} pages of a 30-day query: that day, then 29 days of
 *     {@code --month-files} (1,000) each: a page served from that day reads it alone;
 * <li>{@code hour}: every page of a 1-hour window of a day of {@code --hour-day-files} (10,000);
 * <li>{@code busy}: every page of a day of {@code --busy-day-files} (40,000: 1,000 a WHERE, as a WHAT busy
 *     enough to shard has at least): most pages go on in the WHERE their cursor lies in.
 * </ul>
 * Read units are the ConsumedCapacity dynalite reports ({@link ReadTally}: the items a Query read, their
 * sizes summed and rounded up to 4 KB, halved: eventually consistent), at least 0.5 a Query; the items read
 * are printed beside them, as PageCostTest counts them. Times are medians of the pages: through the local
 * stack's HTTP API, as a user of scripts/local.sh waits for them (the "latency on the local
 * stack"); raw (the function's handler called directly), with the CPU a page costs dynalite and us and the
 * floor that sets (dynalite answers on one thread); and with a simulated round trip per call
 * ({@code --latency-ms}). Goals against the unsharded page: S Queries for each of its Queries and 2 more
 * (S + 2 for a day's page), 1.5x its read units, 3x its time. {@code --json FILE} writes every figure for
 * scripts/bench.sh.
 */
public final class ShardedPageBenchmark {
    private static final int WHERES = 40;
    private static final int DAYS = 30;
    private static final long HOUR = 3_600_000L;
    private static final int[] SHARDS = {1, 4, 16};
    private static final Map<String, Double> FIGURES = new LinkedHashMap<>();

    private ShardedPageBenchmark() {
    }

    /** A query asked of every S's WHAT: its key in the figures, a title, its range and pages (0: all). */
    private record Scenario(String key, String title, long start, long end, int pages, int records) {
        String query(int shards) {
            return "what=" + what(shards) + "&start=" + start + "&end=" + end;
        }
    }

    /** What one page cost. */
    private record PageCost(long queries, long items, double units, long nanos) {
    }

    /**
     * One way of asking for pages: its key in the figures ({@code ms_<key>}), what the printout calls it,
     * and the round trip added to each DynamoDB call.
     */
    private record Mode(String key, String title, int latencyMs) {
    }

    /** Asks the files route one page: the query function's handler, or the local stack's API in front of it. */
    @FunctionalInterface
    private interface FilesRoute {
        APIGatewayV2HTTPResponse get(String rawQuery);
    }

    /**
     * The query function as scripts/local.sh serves it: its handler (one JSON log line a request, to a
     * file) behind the local HTTP API ({@link HttpApiServer}, auth none, the runner's default), asked over
     * one kept-alive HTTP/1.1 connection, so that a page's time is what a user of the local stack waits.
     */
    private record LocalStackApi(HttpApiServer server, HttpClient client, BufferedWriter log, Path logFile)
            implements FilesRoute, AutoCloseable {
        static LocalStackApi start(QueryApi.Builder api) throws IOException {
            Path logFile = Files.createTempFile("sharded-benchmark-query", ".log");
            BufferedWriter log = Files.newBufferedWriter(logFile);
            JsonLog lines = new JsonLog(QueryApi.LOGGER, line -> {
                try {
                    log.write(line);
                    log.newLine();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, Clock.systemUTC());
            HttpApiServer server = HttpApiServer.start(new QueryHandler(api.log(lines).build()), 0);
            return new LocalStackApi(server, HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build(), log,
                    logFile);
        }

        @Override
        public APIGatewayV2HTTPResponse get(String rawQuery) {
            URI page = server.url().resolve("/v0/archive/files/?" + rawQuery);
            try {
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(page).build(),
                        HttpResponse.BodyHandlers.ofString());
                return APIGatewayV2HTTPResponse.builder().withStatusCode(response.statusCode())
                        .withBody(response.body()).build();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }

        @Override
        public void close() throws IOException {
            client.close();
            server.close();
            log.close();
            Files.delete(logFile);
        }
    }

    public static void main(String[] args) {
        int[] latencies = {5};
        int dayFiles = 4_000;
        int monthFiles = 1_000;
        int hourDayFiles = 10_000;
        int busyDayFiles = 40_000;
        int monthPages = 5;
        int runs = 3;
        int clockTicks = 100;
        String json = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            String value = args[i + 1];
            switch (args[i]) {
                case "--latency-ms" -> latencies = Arrays.stream(value.split(",")).mapToInt(Integer::parseInt)
                        .toArray();
                case "--day-files" -> dayFiles = Integer.parseInt(value);
                case "--month-files" -> monthFiles = Integer.parseInt(value);
                case "--hour-day-files" -> hourDayFiles = Integer.parseInt(value);
                case "--busy-day-files" -> busyDayFiles = Integer.parseInt(value);
                case "--month-pages" -> monthPages = Integer.parseInt(value);
                case "--runs" -> runs = Integer.parseInt(value);
                case "--json" -> json = value;
                case "--clock-ticks" -> clockTicks = Integer.parseInt(value);
                default -> throw new IllegalArgumentException("usage: ShardedPageBenchmark [--latency-ms N[,N...]]"
                        + " [--day-files N] [--month-files N] [--hour-day-files N] [--busy-day-files N]"
                        + " [--month-pages N] [--runs N] [--json FILE] [--clock-ticks HZ]");
            }
        }
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException("every option takes a value: " + String.join(" ", args));
        }
        Emulators aws = Emulators.shared();
        QueryBenchmark.EmulatorCpu emulatorCpu = new QueryBenchmark.EmulatorCpu(aws.dynalite().pid(), clockTicks);
        ReadTally tally = new ReadTally();
        SdkClientFactory clients = SdkClientFactory.of(
                SdkClientFactory.functionHttpClient(QueryClients.CONCURRENT_CALLS), aws.dynamoDbClients().credentials(),
                Emulators.REGION).withEndpoint(aws.dynamoDbEndpoint());
        try {
            DatalakeStack names = DatalakeStack.builder(aws).prefix(DatalakeStack.uniquePrefix("sharded"))
                    .tablesOnly().build();
            long hour = T0 + DAYS * DAY + 9 * HOUR;
            long started = System.nanoTime();
            Layout layout = write(aws, names, dayFiles, monthFiles, hourDayFiles, busyDayFiles, hour);
            System.out.printf(Locale.ROOT, "%,d records written in %.1f s: for each S of %s, a day of %,d files,"
                            + " 29 days of %,d, a day of %,d (%d in the hour read), a day of %,d; %d WHEREs; %d runs"
                            + " after a warm-up; %d cores%n", layout.records(), (System.nanoTime() - started) / 1e9,
                    Arrays.toString(SHARDS), layout.dayFiles(), monthFiles, layout.hourDayFiles(), layout.hourFiles(),
                    layout.busyDayFiles(), WHERES, runs, Runtime.getRuntime().availableProcessors());
            List<Scenario> scenarios = List.of(
                    new Scenario("day", String.format(Locale.ROOT, "every 100-record page of a %,d-file day",
                            layout.dayFiles()), T0, T0 + DAY - 1, 0, layout.dayFiles()),
                    new Scenario("30d", String.format(Locale.ROOT, "the first %d pages of a 30-day query", monthPages),
                            T0, T0 + DAYS * DAY - 1, monthPages, 100 * monthPages),
                    new Scenario("hour", String.format(Locale.ROOT, "every page of a 1-hour window of a %,d-file day",
                            layout.hourDayFiles()), hour, hour + HOUR - 1, 0, layout.hourFiles()),
                    new Scenario("busy", String.format(Locale.ROOT, "every page of a %,d-file day (%,d a WHERE)",
                            layout.busyDayFiles(), layout.busyDayFiles() / WHERES), T0 + (DAYS + 1) * DAY,
                            T0 + (DAYS + 2) * DAY - 1, 0, layout.busyDayFiles()));
            FIGURES.put("query_sharded_wheres", (double) WHERES);
            FIGURES.put("query_sharded_day_files", (double) layout.dayFiles());
            FIGURES.put("query_sharded_month_files_per_day", (double) monthFiles);
            FIGURES.put("query_sharded_hour_day_files", (double) layout.hourDayFiles());
            FIGURES.put("query_sharded_hour_files", (double) layout.hourFiles());
            FIGURES.put("query_sharded_busy_day_files", (double) layout.busyDayFiles());
            System.out.println("read units: dynalite's ConsumedCapacity of each Query (item sizes rounded up to 4 KB,"
                    + " halved: eventually consistent), at least 0.5 a Query");
            // Every mode on a client of its own, all at once, and each query walked in every mode in turn:
            // whatever drifts while the benchmark runs drifts for all of them alike (measured one mode after
            // another, the first after the writes took S = 16 some 15-40% longer than the next, whatever its
            // mode or warm-up; the cause not found).
            List<Mode> modes = new ArrayList<>(List.of(
                    new Mode("local",
                            "dynalite, no added latency, through the local stack's HTTP API (scripts/local.sh)", 0),
                    new Mode("raw", "dynalite, no added latency, the query function's handler called directly", 0)));
            Arrays.stream(latencies).forEach(latency -> modes.add(new Mode("latency" + latency + "ms",
                    "dynalite + " + latency + " ms per call (a network round trip)", latency)));
            Map<Mode, FilesRoute> routes = new LinkedHashMap<>();
            List<AutoCloseable> open = new ArrayList<>();
            try {
                for (Mode mode : modes) {
                    DynamoDbClient dynamoDb = clients.build(DynamoDbClient.builder(), c -> {
                        c.addExecutionInterceptor(tally);
                        if (mode.latencyMs() > 0) {
                            c.addExecutionInterceptor(new QueryBenchmark.Latency(mode.latencyMs()));
                        }
                    });
                    open.add(dynamoDb);
                    // the shard map as the function reads it: from the records table, at most once a minute
                    ShardMapTable map = new ShardMapTable(dynamoDb, names.recordsTable());
                    QueryApi.Builder api = QueryBenchmark.api(QueryConfig.of(names.recordsTable(), names.bucket()),
                            dynamoDb).shards(new CachedShardMap(map, Clock.systemUTC()));
                    if (mode.key().equals("local")) {
                        LocalStackApi local = LocalStackApi.start(api);
                        open.add(local);
                        routes.put(mode, local);
                    } else {
                        QueryApi direct = api.build();
                        routes.put(mode, rawQuery -> direct.handle(Events.get("/v0/archive/files/", rawQuery)));
                    }
                }
                measure(routes, tally, scenarios, runs, emulatorCpu);
            } finally {
                closeAll(open.reversed());
            }
            if (tally.unreported() > 0) {
                throw new IllegalStateException(tally.unreported() + " Queries came back without ConsumedCapacity");
            }
            if (json != null) {
                StringBuilder text = new StringBuilder("{");
                FIGURES.forEach((k, v) -> text.append(text.length() > 1 ? "," : "").append('"').append(k)
                        .append("\":").append(String.format(Locale.ROOT, "%.2f", v)));
                Files.writeString(Path.of(json), text.append('}'));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            aws.close();
        }
    }

    private static String what(int shards) {
        return "s" + shards;
    }

    /** What each S's WHAT holds (the same for every S), and the records written for all of them. */
    private record Layout(int dayFiles, int hourDayFiles, int hourFiles, int busyDayFiles, int records) {
    }

    /** Writes the shard map, then every S's files as the ingester would under that map. */
    private static Layout write(Emulators aws, DatalakeStack names, int dayFiles, int monthFiles, int hourDayFiles,
            int busyDayFiles, long hour) {
        ShardMap map = ShardMap.EMPTY;
        for (int shards : SHARDS) {
            if (shards > 1) {
                map = map.with(what(shards), new ShardMap.Entry(TimeBuckets.bucketOf(T0), shards));
            }
        }
        ShardMapTable table = new ShardMapTable(aws.dynamoDb(), names.recordsTable());
        table.write(map, table.read().revision(), System.currentTimeMillis());
        List<Record> records = new ArrayList<>();
        for (int shards : SHARDS) {
            List<Metadata> files = new ArrayList<>(day(what(shards), 0, dayFiles));
            for (int day = 1; day < DAYS; day++) {
                files.addAll(day(what(shards), day, monthFiles));
            }
            files.addAll(day(what(shards), DAYS, hourDayFiles));
            files.addAll(day(what(shards), DAYS + 1, busyDayFiles));
            records.addAll(TestFiles.records(files, map));
        }
        // dynalite handles one call at a time; a few writers keep it busy while the others wait on the wire
        ExecutorService writers = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Integer>> chunks = new ArrayList<>();
            for (int from = 0; from < records.size(); from += 2_500) {
                List<Record> chunk = records.subList(from, Math.min(records.size(), from + 2_500));
                chunks.add(() -> {
                    QueryHarness.writeRecords(aws.dynamoDb(), names.recordsTable(), chunk);
                    return chunk.size();
                });
            }
            Futures.all(writers, chunks);
        } finally {
            writers.shutdownNow();
        }
        List<Metadata> hourDay = day(what(1), DAYS, hourDayFiles);
        int inHour = (int) hourDay.stream().filter(m -> m.start() >= hour && m.start() < hour + HOUR).count();
        return new Layout(day(what(1), 0, dayFiles).size(), hourDay.size(), inHour,
                day(what(1), DAYS + 1, busyDayFiles).size(), records.size());
    }

    /** {@code files / 40} files of each of 40 WHEREs on day {@code day}, their starts spread evenly over it. */
    private static List<Metadata> day(String what, int day, int files) {
        int perWhere = Math.max(1, files / WHERES);
        int total = perWhere * WHERES;
        List<Metadata> all = new ArrayList<>(total);
        for (int w = 0; w < WHERES; w++) {
            for (int i = 0; i < perWhere; i++) {
                long start = T0 + day * DAY + (i * (long) WHERES + w) * (DAY / total);
                all.add(TestFiles.file(String.format("%s-%02d-%02d-%05d", what, day, w, i), what,
                        String.format("host-%02d", w), start, null));
            }
        }
        return all;
    }

    /**
     * A warm-up walk of every query (which checks what it returns), then {@code runs} walks, S after S, each
     * walk in every mode in turn; then each mode's figures, and the raw mode's CPU.
     */
    private static void measure(Map<Mode, FilesRoute> routes, ReadTally tally, List<Scenario> scenarios, int runs,
            QueryBenchmark.EmulatorCpu emulatorCpu) {
        Map<Mode, Map<String, List<PageCost>>> costs = new LinkedHashMap<>();
        for (int run = -1; run < runs; run++) {
            for (Scenario scenario : scenarios) {
                for (int shards : SHARDS) {
                    for (Map.Entry<Mode, FilesRoute> route : routes.entrySet()) {
                        List<PageCost> pages = walk(route.getValue(), tally, scenario, shards);
                        if (run >= 0) {
                            costs.computeIfAbsent(route.getKey(), k -> new LinkedHashMap<>())
                                    .computeIfAbsent(scenario.key() + "_s" + shards, k -> new ArrayList<>())
                                    .addAll(pages);
                        }
                    }
                }
            }
        }
        for (Mode mode : routes.keySet()) {
            System.out.println(mode.title() + ":");
            Map<String, List<PageCost>> modeCosts = costs.get(mode);
            for (Scenario scenario : scenarios) {
                List<PageCost> unsharded = modeCosts.get(scenario.key() + "_s1");
                System.out.printf(Locale.ROOT, "  %s (%d pages):%n", scenario.title(), unsharded.size() / runs);
                for (int shards : SHARDS) {
                    report(scenario.key(), shards, mode.key(), modeCosts.get(scenario.key() + "_s" + shards),
                            unsharded);
                }
                if (mode.key().equals("raw")) {
                    floors(routes.get(mode), tally, scenario, runs, emulatorCpu, unsharded);
                }
            }
        }
    }

    /** Closes each, in order, whatever the others do: a benchmark's clients and servers at its end. */
    private static void closeAll(List<AutoCloseable> resources) {
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            } catch (Exception e) {
                System.err.println("could not close " + resource + ": " + e);
            }
        }
    }

    /**
     * The CPU a page costs, dynalite's (its process) and ours (the caller and the readers), while each S's
     * query is walked {@code runs} times more, and the floor that sets on the raw time: dynalite answers on
     * one Node.js thread, so a page cannot take less than dynalite's CPU for it, nor less than both
     * processes' CPU spread over every core. Printed against the unsharded median, as the 3x goal is.
     */
    private static void floors(FilesRoute api, ReadTally tally, Scenario scenario, int runs,
            QueryBenchmark.EmulatorCpu emulatorCpu, List<PageCost> unsharded) {
        int cores = Runtime.getRuntime().availableProcessors();
        double unshardedMs = QueryBenchmark.median(unsharded.stream().mapToLong(PageCost::nanos).toArray());
        for (int shards : SHARDS) {
            int[] pages = new int[1];
            QueryBenchmark.CpuSplit walks = QueryBenchmark.CpuSplit.measure(
                    () -> pages[0] += walk(api, tally, scenario, shards).size(), runs, emulatorCpu);
            double perWalk = (double) pages[0] / runs;
            double emulatorMs = walks.emulatorMs() / perWalk;
            double oursMs = walks.oursMs() / perWalk;
            double floorMs = Math.max(emulatorMs, (emulatorMs + oursMs) / cores);
            String key = "query_sharded_" + scenario.key() + "_s" + shards + "_";
            FIGURES.put(key + "cpu_emulator_ms", emulatorMs);
            FIGURES.put(key + "cpu_ours_ms", oursMs);
            FIGURES.put(key + "floor_over_s1_raw", floorMs / unshardedMs);
            System.out.printf(Locale.ROOT, "    S=%-2d CPU a page: dynalite %6.2f ms, ours %6.2f ms; floor on %d cores"
                    + " %6.2f ms = %.2fx the S=1 median%n", shards, emulatorMs, oursMs, cores, floorMs,
                    floorMs / unshardedMs);
        }
    }

    /** Prints and records one S's pages against the unsharded ones (S = 1); Queries and RRU from the raw run. */
    private static void report(String scenario, int shards, String mode, List<PageCost> pages,
            List<PageCost> unsharded) {
        String key = "query_sharded_" + scenario + "_s" + shards + "_";
        long most = pages.stream().mapToLong(PageCost::queries).max().orElse(0);
        double meanQueries = pages.stream().mapToLong(PageCost::queries).average().orElse(0);
        double units = pages.stream().mapToDouble(PageCost::units).sum();
        double unitsOverS1 = units / unsharded.stream().mapToDouble(PageCost::units).sum();
        // items read, which the unit test (PageCostTest) counts: RRU beyond them is the 4 KB rounding of small reads
        long items = pages.stream().mapToLong(PageCost::items).sum();
        double itemsOverS1 = (double) items / unsharded.stream().mapToLong(PageCost::items).sum();
        // the S + 2 a page of one day: S for each Query of the unsharded page, and 2 more
        long mostUnsharded = unsharded.stream().mapToLong(PageCost::queries).max().orElse(0);
        long queryGoal = shards * mostUnsharded + (shards > 1 ? 2 : 0);
        long[] nanos = pages.stream().mapToLong(PageCost::nanos).toArray();
        double ms = QueryBenchmark.median(nanos);
        double msOverS1 = ms / QueryBenchmark.median(unsharded.stream().mapToLong(PageCost::nanos).toArray());
        double p95 = QueryBenchmark.percentile(nanos, 0.95);
        if (mode.equals("raw")) {
            FIGURES.put(key + "queries_max", (double) most);
            FIGURES.put(key + "queries_mean", meanQueries);
            FIGURES.put(key + "queries_goal", (double) queryGoal);
            FIGURES.put(key + "rru_mean", units / pages.size());
            FIGURES.put(key + "rru_over_s1", unitsOverS1);
            FIGURES.put(key + "items_mean", (double) items / pages.size());
            FIGURES.put(key + "items_over_s1", itemsOverS1);
        }
        FIGURES.put(key + "ms_" + mode, ms);
        FIGURES.put(key + "p95_ms_" + mode, p95);
        FIGURES.put(key + "ms_over_s1_" + mode, msOverS1);
        System.out.printf(Locale.ROOT, "    S=%-2d Queries a page max %3d, mean %6.1f (<= %d: %s); RRU a page %7.2f"
                        + " = %.2fx S=1 (<= 1.5x: %s; items read %.2fx); page %7.2f ms, p95 %7.2f = %.2fx S=1"
                        + " (<= 3x: %s)%n", shards, most, meanQueries, queryGoal, most <= queryGoal ? "met" : "MISSED",
                units / pages.size(), unitsOverS1, unitsOverS1 <= 1.5 ? "met" : "MISSED", itemsOverS1, ms, p95,
                msOverS1, msOverS1 <= 3 ? "met" : "MISSED");
    }

    /** What each page of the query cost (its first {@code pages}, unless 0); fails unless each file came once. */
    private static List<PageCost> walk(FilesRoute api, ReadTally tally, Scenario scenario, int shards) {
        List<PageCost> pages = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        String rawQuery = scenario.query(shards);
        while (rawQuery != null && (scenario.pages() == 0 || pages.size() < scenario.pages())) {
            long queries = tally.queries();
            long items = tally.items();
            double units = tally.units();
            long started = System.nanoTime();
            APIGatewayV2HTTPResponse response = api.get(rawQuery);
            long nanos = System.nanoTime() - started;
            pages.add(new PageCost(tally.queries() - queries, tally.items() - items, tally.units() - units, nanos));
            JsonNode body = Events.body(response);
            if (response.getStatusCode() != 200) {
                throw new IllegalStateException(scenario.query(shards) + " answered " + response.getStatusCode());
            }
            for (JsonNode record : body.path("records")) {
                if (!seen.add(record.path("url").asText())) {
                    throw new IllegalStateException("a file came twice: " + record.path("url").asText());
                }
            }
            rawQuery = body.path("next").isNull() ? null : URI.create(body.path("next").asText()).getRawQuery();
        }
        if (seen.size() != scenario.records()) {
            throw new IllegalStateException(scenario.query(shards) + " returned " + seen.size() + " files, not "
                    + scenario.records());
        }
        return pages;
    }
}
