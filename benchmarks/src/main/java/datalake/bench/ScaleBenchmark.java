package datalake.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.emulators.Dynalite;
import datalake.bench.limits.PartitionLimits;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * docs/SCALE.md's busiest hour at 100 million files a day against DynamoDB's partition limits, both
 * scaled down by one factor, through the real ingester (scripts/bench.sh, part 8). The workload is
 * scripts/scale_sim.py's ({@code --emit-files}); DynamoDB is dynalite behind the partition-limit
 * model ({@code ThrottlingProxy}); SQS and Lambda's event source run in this JVM with the template's
 * settings ({@link LambdaQueue}); HeadObject and the reports are answered by {@link SimulatedAws}. Three
 * runs: without limits (the baseline), with limits, and with limits and the top WHAT sharded.
 *
 * <p>usage: ScaleBenchmark --workload F --factor N [--runs unthrottled,unsharded,sharded] [--shards 4]
 * [--concurrency N] [--round-trip-ms 5] [--warmup-seconds 30] [--drain-minutes 20] [--json F] [--counts DIR]
 * (each run's table keys' writes a second, {@code DIR/scale-<run>-counts.csv}, for {@code scripts/shards.sh
 * suggest --from-counts F --factor N})
 */
public final class ScaleBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ScaleBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = Options.parse(args);
        ScaleWorkload workload = ScaleWorkload.read(Path.of(options.get("workload")));
        double factor = Double.parseDouble(options.getOrDefault("factor", "40"));
        int shards = Integer.parseInt(options.getOrDefault("shards", "4"));
        int concurrency = Integer.parseInt(options.getOrDefault("concurrency", "0"));
        Duration roundTrip = Duration.ofMillis(Long.parseLong(options.getOrDefault("round-trip-ms", "5")));
        Duration drainLimit = Duration.ofMinutes(Long.parseLong(options.getOrDefault("drain-minutes", "20")));
        int warmup = Integer.parseInt(options.getOrDefault("warmup-seconds", "30"));
        List<ScaleRun> runs = new ArrayList<>();
        for (String name : options.getOrDefault("runs", "unthrottled,unsharded,sharded").split(",", -1)) {
            runs.add(switch (name) {
                case "unthrottled" -> new ScaleRun(name, PartitionLimits.unlimited(), 1);
                case "unsharded" -> new ScaleRun(name, PartitionLimits.scaledDown(factor), 1);
                case "sharded" -> new ScaleRun(name, PartitionLimits.scaledDown(factor), shards);
                default -> throw new IllegalArgumentException("unknown run " + name + ": unthrottled, unsharded or sharded.");
            });
        }
        PrintStream out = System.out;
        // The ingester logs a JSON line per message: formatted as in Lambda, dropped here.
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        out.printf(Locale.ROOT, "scale: %,d files over %d s (%.1f/s); %s; %s; %d ms round trip to the simulated S3 and SNS%n",
                workload.files().size(), workload.seconds(), (double) workload.files().size() / workload.seconds(),
                PartitionLimits.scaledDown(factor), concurrency > 0 ? concurrency + " concurrent batches"
                        : "the template's MaximumConcurrency of concurrent batches", roundTrip.toMillis());

        List<ScaleFigures> results = new ArrayList<>();
        try (Dynalite dynalite = new Dynalite()) {
            dynalite.start();
            if (warmup > 0) {
                // The JIT compiles the ingester and the proxy, as a warm Lambda sandbox is.
                ScaleFigures warm = new ScaleRun("warmup", PartitionLimits.unlimited(), 1)
                        .run(workload.first(warmup), dynalite.endpoint(), concurrency, roundTrip, drainLimit, Optional.empty());
                out.printf(Locale.ROOT, "  warm-up: the first %d s without limits, freshness p50 %.0f ms%n", warmup,
                        warm.freshness().p50());
            }
            for (ScaleRun run : runs) {
                Optional<Path> counts = Optional.ofNullable(options.get("counts"))
                        .map(dir -> Path.of(dir, "scale-" + run.name() + "-counts.csv"));
                ScaleFigures figures = run.run(workload, dynalite.endpoint(), concurrency, roundTrip, drainLimit, counts);
                results.add(figures);
                out.printf(Locale.ROOT, "  %s: freshness p50 %.0f ms, p99 %.0f ms; %,d throttled writes; %,d handed back%n",
                        run.name(), figures.freshness().p50(), figures.freshness().p99(), figures.throttledWrites(),
                        figures.handedBack());
            }
        }
        table(out, results);
        if (options.containsKey("json")) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("scale_factor", factor);
            json.put("scale_files", workload.files().size());
            json.put("scale_seconds", workload.seconds());
            for (ScaleFigures figures : results) {
                figures.json().forEach((k, v) -> json.put(k, v instanceof Double d && !Double.isFinite(d) ? null : v));
            }
            Files.writeString(Path.of(options.get("json")), JSON.writeValueAsString(json));
        }
        System.exit(0);
    }

    private static void table(PrintStream out, List<ScaleFigures> results) {
        if (results.isEmpty()) {
            return;
        }
        out.println();
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "  %-46s", ""));
        results.forEach(r -> header.append(String.format(Locale.ROOT, "%22s",
                r.run() + (r.shards() > 1 ? " (S=" + r.shards() + ")" : ""))));
        out.println(header);
        row(out, results, "top WHAT offered /s (p50/p99/max second)", r -> triple(r.offered(), "%.0f"));
        row(out, results, "hottest table key (<day>:...)", r -> r.hottestKey().substring(r.hottestKey().indexOf(':') + 1));
        row(out, results, "  its writes /s while files arrive (p50/p99/max)", r -> triple(r.hottestPerSecond(), "%.0f"));
        row(out, results, "throttled writes (of which by a GSI key)", r -> String.format(Locale.ROOT, "%,d (%,d)",
                r.throttledWrites(), r.throttledOnIndexes()));
        row(out, results, "handed back to SQS (dead-lettered)", r -> String.format(Locale.ROOT, "%,d (%,d)", r.handedBack(),
                r.leftOnLastReceive()));
        row(out, results, "  as the ingester's error kinds", r -> r.handedBackKinds().isEmpty() ? "-"
                : r.handedBackKinds().toString().replaceAll("[{}]", ""));
        row(out, results, "not written by the end", r -> String.format(Locale.ROOT, "%,d", r.notWritten()));
        row(out, results, "freshness ms, enqueue to written (p50/p99)", r -> String.format(Locale.ROOT, "%.0f / %.0f",
                r.freshness().p50(), r.freshness().p99()));
        row(out, results, "  of which the queue (p50/p99)", r -> String.format(Locale.ROOT, "%.0f / %.0f",
                r.queued().p50(), r.queued().p99()));
        row(out, results, "drain after the last arrival (s)", r -> String.format(Locale.ROOT, "%.1f", r.drainSeconds()));
        row(out, results, "30-day query, first page: Queries / RRU", r -> String.format(Locale.ROOT, "%d / %.1f",
                r.firstPage().queries(), r.firstPage().rru()));
        row(out, results, "30 days of one WHERE: pages / Queries / RRU", r -> String.format(Locale.ROOT, "%d / %d / %.1f",
                r.oneWhere().pages(), r.oneWhere().queries(), r.oneWhere().rru()));
    }

    private static void row(PrintStream out, List<ScaleFigures> results, String label, Function<ScaleFigures, String> cell) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-46s", label));
        results.forEach(r -> line.append(String.format(Locale.ROOT, "%22s", cell.apply(r))));
        out.println(line);
    }

    private static String triple(Percentiles p, String format) {
        return String.format(Locale.ROOT, format + "/" + format + "/" + format, p.p50(), p.p99(), p.max());
    }
}
