package datalake.tools;

import datalake.lambda.ConfigurationException;
import datalake.lambda.Environment;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code scripts/backfill.sh s3://bucket[/prefix] [--start-after KEY | --keys-from FILE] [--workers N]
 * [--chunk N]}: indexes the objects already in a bucket (README, "Adopting an existing bucket"), or the
 * keys of a file. Progress on standard error; the summary on standard output, its last line the counts.
 * Exit status 0 when every object was indexed or skipped, 2 when some failed, 3 when it stopped before the
 * end (Ctrl-C, or a failure of AWS after the first listing: then with the reason, and where to resume), 1
 * for a usage error or a run that could not start (nothing listed). The keys of objects still failing
 * transiently go to a file it names, and a run given that file ({@code --keys-from}) follows them alone.
 */
public final class BackfillCommand {
    static final String USAGE = "usage: scripts/backfill.sh s3://bucket[/prefix] [--start-after KEY | --keys-from FILE]"
            + " [--workers N] [--chunk N] [--page-size N]";

    private BackfillCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    @SuppressWarnings("try") // the progress line is drawn by its own timer: the try only closes it
    static int run(String[] args, PrintStream out, PrintStream err) {
        Backfill.Options options;
        try {
            Arguments parsed = Arguments.parse(args, Set.of("--start-after", "--keys-from", "--workers", "--chunk",
                    "--page-size"), Set.of("--help"));
            if (parsed.has("--help") || parsed.positional.size() != 1) {
                err.println(USAGE);
                return parsed.has("--help") ? 0 : 1;
            }
            Target target = Target.parse(parsed.positional.get(0));
            if (parsed.has("--start-after") && parsed.has("--keys-from")) {
                throw new IllegalArgumentException("give --start-after or --keys-from, not both.");
            }
            options = new Backfill.Options(target, parsed.get("--start-after"),
                    parsed.number("--page-size", 1000, 1, 1000), parsed.number("--workers", 8, 1, 256),
                    parsed.number("--chunk", 50, 1, 1000),
                    parsed.has("--keys-from") ? keys(Path.of(parsed.get("--keys-from")), target) : null);
        } catch (IllegalArgumentException e) {
            err.println("backfill: " + e.getMessage());
            err.println(USAGE);
            return 1;
        }
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(1);
        AtomicInteger status = new AtomicInteger(3);
        Thread hook = new Thread(() -> {
            stop.set(true);
            try {
                done.await(120, TimeUnit.SECONDS); // the page under way finishes, then the summary is printed
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            // main's System.exit waits for this hook, and the JVM would then end with the signal's status
            // (130 for Ctrl-C): the run's own goes out from here.
            out.flush();
            err.flush();
            Runtime.getRuntime().halt(status.get());
        }, "backfill-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try (Tools tools = Tools.fromEnvironment(options.workers() * 4)) {
            Backfill backfill = new Backfill(tools.clients().s3(), tools.ingester(), Clock.systemUTC());
            Backfill.Result result;
            try (Progress progress = Progress.toStandardError(backfill::progressLine)) {
                result = backfill.run(options, stop::get);
            } catch (Backfill.Failed failed) {
                err.println(Tools.unanswered("backfill", failed.getCause(), Environment.system())
                        .orElse("backfill: " + failed.getMessage()));
                result = failed.partial();
            }
            print(result, options, out);
            status.set(status(result));
        } catch (ConfigurationException e) {
            err.println("backfill: " + e.getMessage());
            status.set(1);
        } catch (RuntimeException e) {
            err.println(Tools.unanswered("backfill", e, Environment.system()).orElseThrow(() -> e));
            status.set(1);
        } finally {
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it waited for this
            }
        }
        return status.get();
    }

    /**
     * The keys of a {@code --keys-from} file, one a line (blank lines skipped, each key once), each under the
     * target; {@link IllegalArgumentException} with one sentence otherwise.
     */
    static List<String> keys(Path file, Target target) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("there is no --keys-from file " + file + ".");
        } catch (IOException | UncheckedIOException e) {
            throw new IllegalArgumentException("cannot read the --keys-from file " + file + " (" + e.getMessage()
                    + ").");
        }
        Set<String> keys = new LinkedHashSet<>();
        for (String key : lines) {
            if (key.isEmpty()) {
                continue;
            }
            if (!key.startsWith(target.prefix())) {
                throw new IllegalArgumentException("the key '" + key + "' in " + file + " is not under " + target + ".");
            }
            keys.add(key);
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("the --keys-from file " + file + " holds no key.");
        }
        return List.copyOf(keys);
    }

    /** 3 stopped before the end, 2 done with failures, 0 done. */
    static int status(Backfill.Result result) {
        return result.stopped() ? 3 : result.failed() > 0 ? 2 : 0;
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
        String command = "scripts/backfill.sh " + options.target();
        String resume = command + (r.resumeAfter() == null ? "" : " --start-after " + quoted(r.resumeAfter()));
        if (r.stopped()) {
            String done = r.total().map(total -> String.format(Locale.ROOT, " (%,d of %,d objects, %d%%)", r.listed(),
                    total, total == 0 ? 100 : r.listed() * 100 / total)).orElse("");
            out.println("stopped before the end" + done + ": resume with "
                    + (options.keys() == null ? resume : retry(r.retry(), command, "the same command")));
        } else if (!r.retry().isEmpty()) {
            out.println(String.format(Locale.ROOT, "%,d failed transiently: retry them with %s", r.retry().size(),
                    retry(r.retry(), command, options.keys() == null ? resume : "the same command")));
        }
        out.println(r.countsLine());
    }

    /**
     * The command that follows exactly these keys: their file, written in the temporary directory; or, when it
     * cannot be written, {@code otherwise} and why.
     */
    private static String retry(List<String> keys, String command, String otherwise) {
        try {
            if (keys.stream().anyMatch(key -> key.indexOf('\n') >= 0 || key.indexOf('\r') >= 0)) {
                throw new IOException("a key holds a line break");
            }
            Path file = Files.createTempFile("backfill-retry-", ".keys");
            Files.write(file, keys, StandardCharsets.UTF_8);
            return command + " --keys-from " + quoted(file.toAbsolutePath().toString());
        } catch (IOException | UncheckedIOException e) {
            return otherwise + " (no file of their keys: " + e.getMessage() + ")";
        }
    }

    /** A word as the shell reads it back: in single quotes. */
    private static String quoted(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
