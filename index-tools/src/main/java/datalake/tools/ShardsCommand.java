package datalake.tools;

import datalake.dynamodb.ShardMapItem;
import datalake.ingester.Sleeper;
import datalake.lambda.Environment;
import datalake.lambda.EnvironmentVariable;
import datalake.lambda.SdkClientFactory;
import datalake.records.ShardMap;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@code scripts/shards.sh show | set WHAT --from YYYY-MM-DD --shards S | suggest}: prints or changes the
 * records table's shard map (docs/SCALE.md, "Write sharding"; the checks are {@link ShardChange}'s), or
 * suggests which WHATs to shard from measured writes ({@link ShardSuggestion}). Reads
 * {@code DATALAKE_DYNAMODB_TABLE}, {@code AWS_REGION}, the AWS CLI's credentials and
 * {@code AWS_ENDPOINT_URL_*}, as the other tools. Exit status 0 done (or nothing to change), 1 a usage
 * error or a refused change.
 */
public final class ShardsCommand {
    static final int MAX_HOURS = 168;
    static final String USAGE = "usage: scripts/shards.sh show\n"
            + "       scripts/shards.sh set WHAT --from YYYY-MM-DD --shards S   (S from 1, unsharded, to "
            + ShardMap.MAX_SHARDS + "; from the day after tomorrow, UTC, on)\n"
            + "       scripts/shards.sh suggest [--hours H]   (from the records table's Contributor Insights, the"
            + " last H hours, 1 to " + MAX_HOURS + ", 24 by default)\n"
            + "       scripts/shards.sh suggest --from-counts FILE [--factor F]   (from \"key,second,writes\" lines,"
            + " each times F)";
    static final String PYTHON_WARNING = "warning: the Python datalake's API reads only <day>:<what> keys: it cannot"
            + " read the files of a WHAT's sharded days; serve them through this API.";

    private ShardsCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err, ShardsCommand::fromEnvironment, Clock.systemUTC(),
                Sleeper.SYSTEM));
    }

    /** The records table's change from the environment, as the other tools read it. */
    private static MapTable fromEnvironment() {
        Environment env = Environment.system();
        String table = env.require(EnvironmentVariable.DYNAMODB_TABLE);
        SdkClientFactory clients = SdkClientFactory.forFunction(env, 4);
        DynamoDbClient dynamoDb = clients.build(DynamoDbClient.builder());
        return new MapTable(dynamoDb, table,
                () -> ContributorInsights.of(dynamoDb, clients.build(CloudWatchClient.builder())));
    }

    /**
     * Where the map is: a DynamoDB client and the records table's name; where the table's Contributor
     * Insights are (built only by a suggest that reads them); and its time, from the local clock (AWS's,
     * {@link AwsClock}: the workstation's may be off).
     */
    record MapTable(DynamoDbClient dynamoDb, String table, Supplier<ContributorInsights.Reports> insights,
            UnaryOperator<Clock> time) {
        MapTable(DynamoDbClient dynamoDb, String table, Supplier<ContributorInsights.Reports> insights) {
            this(dynamoDb, table, insights, local -> AwsClock.of(dynamoDb, table, local));
        }

        MapTable(DynamoDbClient dynamoDb, String table) {
            this(dynamoDb, table, () -> {
                throw new IllegalStateException("no CloudWatch here: give --from-counts.");
            });
        }
    }

    /**
     * @param target  built only once the arguments are valid (a --help builds nothing)
     * @param clock   the local clock, which the target's time sets to AWS's
     * @param sleeper waits the minute between a change's two writes ({@link ShardChange})
     */
    static int run(String[] args, PrintStream out, PrintStream err, Supplier<MapTable> target, Clock clock,
            Sleeper sleeper) {
        Arguments parsed;
        try {
            parsed = Arguments.parse(args, Set.of("--from", "--shards", "--from-counts", "--factor", "--hours"),
                    Set.of("--help"));
        } catch (IllegalArgumentException e) {
            return usage(err, e.getMessage());
        }
        if (parsed.has("--help")) {
            out.println(USAGE);
            return 0;
        }
        List<String> words = parsed.positional;
        if (words.equals(List.of("suggest"))) {
            return suggest(parsed, out, err, target, clock);
        }
        if (parsed.has("--from-counts") || parsed.has("--factor") || parsed.has("--hours")) {
            return usage(err, "--from-counts, --factor and --hours go with suggest.");
        }
        boolean show = words.equals(List.of("show")) && !parsed.has("--from") && !parsed.has("--shards");
        boolean set = words.size() == 2 && words.get(0).equals("set");
        if (!show && !set) {
            return usage(err, "give show, set WHAT with --from and --shards, or suggest.");
        }
        LocalDate from = null;
        int shards = 0;
        if (set) {
            try {
                if (parsed.get("--from") == null || parsed.get("--shards") == null) {
                    throw new IllegalArgumentException("set needs --from YYYY-MM-DD and --shards S.");
                }
                from = date(parsed.get("--from"));
                shards = parsed.number("--shards", 0, 1, ShardMap.MAX_SHARDS);
            } catch (IllegalArgumentException e) {
                return usage(err, e.getMessage());
            }
        }
        try {
            MapTable on = target.get();
            Clock now = show ? clock : on.time().apply(clock); // a change's days and times are AWS's
            ShardChange change = new ShardChange(on.dynamoDb(), on.table(), now, duration -> {
                err.println("waiting " + duration.toSeconds() + " s: every function reads the new layout before"
                        + " any writes it.");
                sleeper.sleep(duration);
            });
            if (show) {
                ShardMapItem.Stored stored = change.read();
                print(stored.map(), stored.revision(), on.table(), out);
                if (!stored.map().whats().isEmpty()) {
                    err.println(PYTHON_WARNING);
                }
                return 0;
            }
            ShardChange.Result result = set(change, words.get(1), from, shards, err);
            if (!result.changed()) {
                out.println("unchanged: " + words.get(1) + " already has " + shards + " shard(s) from " + from
                        + " on.");
            } else {
                out.println("set: " + words.get(1) + " into " + shards + " shard(s) from " + from + " on (revision "
                        + result.revision() + ").");
            }
            print(result.after(), result.revision(), on.table(), out);
            err.println(PYTHON_WARNING);
            return 0;
        } catch (IllegalArgumentException | IllegalStateException e) { // ConfigurationException too
            err.println("shards: " + e.getMessage());
            return 1;
        } catch (SdkException e) {
            err.println("shards: DynamoDB did not answer as expected (" + e.getClass().getSimpleName()
                    + "); check the table, the region and the credentials.");
            return 1;
        }
    }

    /**
     * The change, and on Ctrl-C while it waits (a JVM's shutdown interrupts nothing: the wait would just end
     * with the process) the sentence that says what the map is left as and to run the command again.
     */
    private static ShardChange.Result set(ShardChange change, String what, LocalDate from, int shards,
            PrintStream err) {
        Thread hook = new Thread(() -> change.unfinished().ifPresent(left -> {
            err.println("shards: " + left);
            err.flush();
        }), "shards-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return change.set(what, from, shards);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it says where the change stopped
            }
        }
    }

    /**
     * Which WHATs to shard ({@link ShardSuggestion}), from a file of counts or, without one, from the
     * records table's Contributor Insights.
     */
    private static int suggest(Arguments parsed, PrintStream out, PrintStream err, Supplier<MapTable> target,
            Clock clock) {
        String file = parsed.get("--from-counts");
        double factor;
        int hours;
        try {
            if (parsed.has("--from") || parsed.has("--shards")) {
                throw new IllegalArgumentException("suggest takes neither --from nor --shards.");
            }
            if (file == null && parsed.has("--factor")) {
                throw new IllegalArgumentException("--factor goes with --from-counts.");
            }
            if (file != null && parsed.has("--hours")) {
                throw new IllegalArgumentException("--hours goes with Contributor Insights, not with --from-counts.");
            }
            factor = factor(parsed.get("--factor"));
            hours = parsed.number("--hours", 24, 1, MAX_HOURS);
        } catch (IllegalArgumentException e) {
            return usage(err, e.getMessage());
        }
        WriteCounts counts;
        String source;
        Clock now = clock;
        try {
            if (file != null) {
                counts = CountsFile.read(Path.of(file), factor);
                source = file + (factor == 1 ? "" : ", times " + factor);
            } else {
                MapTable on = target.get();
                now = on.time().apply(clock);
                counts = ContributorInsights.read(on.insights().get(), on.table(), now.instant(), hours);
                source = "Contributor Insights of " + on.table() + ", the last " + hours + " hours";
            }
        } catch (IOException e) {
            err.println("shards: cannot read " + file + " (" + e.getMessage() + ").");
            return 1;
        } catch (IllegalArgumentException | IllegalStateException e) {
            err.println("shards: " + e.getMessage());
            return 1;
        } catch (SdkException e) {
            err.println("shards: DynamoDB or CloudWatch did not answer as expected (" + e.getClass().getSimpleName()
                    + "); check the table, the region and the credentials (IndexOperatorPolicy).");
            return 1;
        }
        ShardSuggestion.Result result = ShardSuggestion.of(counts);
        out.println("suggest: " + result.whats() + " WHATs' day keys, writes a"
                + (counts.periodSeconds() == 1 ? " second" : " " + counts.periodSeconds() + " s") + ", from " + source
                + ".");
        ShardSuggestion.report(result, counts.periodSeconds(), ShardChange.earliestDay(now)).forEach(out::println);
        return 0;
    }

    private static double factor(String text) {
        if (text == null) {
            return 1;
        }
        try {
            double factor = Double.parseDouble(text);
            if (factor >= 1 && factor <= 1_000_000) {
                return factor;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("--factor must be a number from 1 on (what the counts' rates were divided"
                + " by).");
    }

    private static LocalDate date(String text) {
        try {
            return LocalDate.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("--from must be a date as YYYY-MM-DD, not \"" + text + "\".");
        }
    }

    private static int usage(PrintStream err, String problem) {
        err.println("shards: " + problem);
        err.println(USAGE);
        return 1;
    }

    static void print(ShardMap map, long revision, String table, PrintStream out) {
        if (map.whats().isEmpty() && map.earlier().isEmpty()) {
            out.println("no WHAT is sharded in " + table + ".");
            return;
        }
        out.println("shard map of " + table + " (revision " + revision + "):");
        print(map.whats(), "", out);
        print(map.earlier(), "  (earlier: still read)", out);
    }

    private static void print(Map<String, List<ShardMap.Entry>> whats, String note, PrintStream out) {
        for (Map.Entry<String, List<ShardMap.Entry>> what : whats.entrySet()) {
            for (ShardMap.Entry entry : what.getValue()) {
                out.println("  " + what.getKey() + "  from " + entry.fromDate() + "  "
                        + (entry.shards() == 1 ? "unsharded" : entry.shards() + " shards") + note);
            }
        }
    }
}
