package datalake.tools;

import datalake.ingester.Ingester;
import datalake.ingester.StoredIndex;
import datalake.lambda.ConfigurationException;
import datalake.lambda.Environment;
import java.io.PrintStream;
import java.time.Clock;
import java.util.Locale;
import java.util.Set;

/**
 * {@code scripts/reconcile.sh s3://bucket[/prefix] [--fix]}: compares the bucket with the index and prints
 * each drift (objects missing from the index, indexed files whose object is gone, indexed metadata that
 * differs from the object's, records without their per-object item, latest entries naming a file not in
 * the index, feeds with files but no latest entry); {@code --fix} repairs them through the ingester's code
 * path. Progress on standard error;
 * the last line of standard output is the counts. Exit status 0 when there is no drift (or all of it was
 * fixed), 2 when drift remains, 1 for a usage error.
 */
public final class ReconcileCommand {
    static final String USAGE = "usage: scripts/reconcile.sh s3://bucket[/prefix] [--fix] [--workers N]";

    private ReconcileCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    @SuppressWarnings("try") // the progress line is drawn by its own timer: the try only closes it
    static int run(String[] args, PrintStream out, PrintStream err) {
        Target target;
        boolean fix;
        int workers;
        try {
            Arguments parsed = Arguments.parse(args, Set.of("--workers"), Set.of("--fix", "--help"));
            if (parsed.has("--help") || parsed.positional.size() != 1) {
                err.println(USAGE);
                return parsed.has("--help") ? 0 : 1;
            }
            target = Target.parse(parsed.positional.get(0));
            fix = parsed.has("--fix");
            workers = parsed.number("--workers", 32, 1, 256);
        } catch (IllegalArgumentException e) {
            err.println("reconcile: " + e.getMessage());
            err.println(USAGE);
            return 1;
        }
        try (Tools tools = Tools.fromEnvironment(workers)) {
            Reconcile reconcile = of(tools, workers);
            Reconcile.Result result;
            try (Progress progress = Progress.toStandardError(reconcile::progressLine)) {
                result = reconcile.run(target, fix);
            }
            print(result, target, fix, out);
            return result.left().isEmpty() ? 0 : 2;
        } catch (ConfigurationException e) {
            err.println("reconcile: " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            err.println(Tools.unanswered("reconcile", e, Environment.system()).orElseThrow(() -> e));
            return 1;
        }
    }

    static Reconcile of(Tools tools, int workers) {
        var config = tools.config();
        var dynamoDb = tools.clients().dynamoDb();
        return new Reconcile(tools.clients().s3(), dynamoDb, config, StoredIndex.forAws(config, tools.clients()),
                tools.ingester(), Ingester.recordFactory(config, dynamoDb), Clock.systemUTC(), workers);
    }

    /**
     * Each finding, each object with invalid metadata (not drift, but never indexed: whoever owns it
     * should know), the summary, and last the counts; after a fix, the drift found first and the drift
     * left last.
     */
    static void print(Reconcile.Result result, Target target, boolean fix, PrintStream out) {
        for (Reconcile.Finding finding : result.findings()) {
            out.println(String.format(Locale.ROOT, "%-12s %s  %s", finding.drift().label, finding.url(), finding.detail()));
        }
        for (String invalid : result.invalidObjects()) {
            out.println("invalid:     " + invalid);
        }
        if (result.invalid() > result.invalidObjects().size()) {
            out.println("invalid:     ... and " + (result.invalid() - result.invalidObjects().size()) + " more");
        }
        out.println(String.format(Locale.ROOT, "reconcile of %s: %,d objects, %,d drift found%s, %,d with invalid"
                        + " datalake metadata (never indexed, so not drift), in %.1f s",
                target, result.objects(), result.findings().size(),
                fix ? String.format(Locale.ROOT, ", %,d fixed", result.repaired()) : "", result.invalid(),
                result.elapsed().toMillis() / 1000.0));
        for (Reconcile.Unfixed problem : result.unfixed()) {
            out.println("not fixed: " + problem.finding().url() + ": " + problem.reason());
        }
        if (fix) {
            out.println("found: " + result.foundLine());
            out.println("after the fix (the findings whose repair failed):");
        }
        out.println(result.countsLine());
    }
}
