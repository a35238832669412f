package datalake.tools;

import datalake.lambda.ConfigurationException;
import java.io.PrintStream;
import java.time.Clock;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code scripts/backfill.sh s3://bucket[/prefix] [--start-after KEY] [--workers N] [--chunk N]}: indexes
 * the objects already in a bucket (README, "Adopting an existing bucket"). Progress on standard error; the
 * summary on standard output, its last line the counts. Exit status 0 when every object was indexed or
 * skipped, 2 when some failed, 3 when it was stopped (Ctrl-C) before the end, 1 for a usage error.
 */
public final class BackfillCommand {
    static final String USAGE = "usage: scripts/backfill.sh s3://bucket[/prefix] [--start-after KEY] [--workers N]"
            + " [--chunk N] [--page-size N]";

    private BackfillCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    @SuppressWarnings("try") // the progress line is drawn by its own timer: the try only closes it
    static int run(String[] args, PrintStream out, PrintStream err) {
        Backfill.Options options;
        try {
            Arguments parsed = Arguments.parse(args, Set.of("--start-after", "--workers", "--chunk", "--page-size"),
                    Set.of("--help"));
            if (parsed.has("--help") || parsed.positional.size() != 1) {
                err.println(USAGE);
                return parsed.has("--help") ? 0 : 1;
            }
            options = new Backfill.Options(Target.parse(parsed.positional.get(0)), parsed.get("--start-after"),
                    parsed.number("--page-size", 1000, 1, 1000), parsed.number("--workers", 8, 1, 256),
                    parsed.number("--chunk", 50, 1, 1000));
        } catch (IllegalArgumentException e) {
            err.println("backfill: " + e.getMessage());
            err.println(USAGE);
            return 1;
        }
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.set(true);
            try {
                done.await(120, TimeUnit.SECONDS); // the page under way finishes, then the summary is printed
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "backfill-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try (Tools tools = Tools.fromEnvironment(options.workers() * 4)) {
            Backfill backfill = new Backfill(tools.clients().s3(), tools.ingester(), Clock.systemUTC());
            Backfill.Result result;
            try (Progress progress = Progress.toStandardError(backfill::progressLine)) {
                result = backfill.run(options, stop::get);
            }
            print(result, options, out);
            return result.stopped() ? 3 : result.failed() > 0 ? 2 : 0;
        } catch (ConfigurationException e) {
            err.println("backfill: " + e.getMessage());
            return 1;
        } finally {
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it waited for this
            }
        }
    }

    static void print(Backfill.Result r, Backfill.Options options, PrintStream out) {
        out.println(String.format(Locale.ROOT,
                "backfill of %s: %,d listed, %,d indexed, %,d unchanged, %,d skipped without metadata, %,d failed,"
                        + " %,d gone in %.1f s (%,.0f objects/s)",
                options.target(), r.listed(), r.indexed(), r.unchanged(), r.withoutMetadata(), r.failed(), r.gone(),
                r.elapsed().toMillis() / 1000.0, r.objectsPerSecond()));
        for (Backfill.Problem problem : r.problems()) {
            out.println("failed: " + problem.url() + ": " + problem.failure().kind().label() + ": "
                    + problem.failure().message());
        }
        if (r.failed() > r.problems().size()) {
            out.println("failed: ... and " + (r.failed() - r.problems().size()) + " more");
        }
        if (r.stopped()) {
            String done = r.total().map(total -> String.format(Locale.ROOT, " (%,d of %,d objects, %d%%)", r.listed(),
                    total, total == 0 ? 100 : r.listed() * 100 / total)).orElse("");
            out.println("stopped before the end" + done + ": resume with scripts/backfill.sh " + options.target()
                    + (r.resumeAfter() == null ? "" : " --start-after '" + r.resumeAfter().replace("'", "'\\''") + "'"));
        }
        out.println(r.countsLine());
    }
}
