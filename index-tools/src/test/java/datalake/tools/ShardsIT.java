package datalake.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.dynamodb.ShardMapTable;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.records.Record;
import datalake.records.ShardMap;
import datalake.records.TimeBuckets;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code scripts/shards.sh} against dynalite as an operator holding IndexOperatorPolicy: its checks,
 * its output and its warnings; a change stopped between its two writes (Ctrl-C) and run again; and the backfill and the reconciliation of a WHAT it shards (files dated
 * ahead of the change found and moved, new files under their shards, a removal followed).
 */
@ExtendWith(EmulatorsExtension.class)
class ShardsIT {
    private static final Emulators AWS = Emulators.shared();
    private static final long START = ToolsHarness.START;
    private static final long D0 = TimeBuckets.bucketOf(START);
    /** Noon of the day after D0's, as the command's today. */
    private static final Clock TODAY = Clock.fixed(Instant.ofEpochMilli(TimeBuckets.startOf(D0 + 1) + 43_200_000L),
            ZoneOffset.UTC);
    private final ToolsHarness h = new ToolsHarness(AWS, "shards");
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    /** What the map said while each change waited: the layouts of D0 + 3's day read, and the one written. */
    private final List<String> pauses = new ArrayList<>();

    @AfterEach
    void close() {
        h.close();
    }

    private int shards(String... args) {
        return shards(TODAY, args);
    }

    /** The command, AWS's time being {@code today} (ShardsSkewedClockIT reads it from DynamoDB). */
    private int shards(Clock today, String... args) {
        out.reset();
        err.reset();
        return ShardsCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                () -> new ShardsCommand.MapTable(h.operator.dynamoDb(), h.recordsTable, () -> {
                    throw new AssertionError("no Contributor Insights here");
                }, local -> today), today, duration -> {
                    ShardMap map = new ShardMapTable(h.operator.dynamoDb(), h.recordsTable).current();
                    pauses.add(duration.toSeconds() + " s: reads " + map.layouts("syslog", D0 + 3) + ", writes "
                            + map.shards("syslog", D0 + 3));
                });
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private static String day(long bucket) {
        return LocalDate.ofEpochDay(bucket).toString();
    }

    @Test
    void theCommandChecksEveryChangeAndSaysWhyItRefusesOne() {
        // --help builds nothing
        assertEquals(0, ShardsCommand.run(new String[] {"--help"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), () -> {
                    throw new AssertionError("--help must not build a client");
                }, TODAY, duration -> {
                    throw new AssertionError("--help must not wait");
                }));
        assertTrue(out().startsWith("usage: scripts/shards.sh show"));

        assertEquals(0, shards("show"));
        assertEquals("no WHAT is sharded in " + h.recordsTable + ".\n", out());

        assertEquals(1, shards("set", "syslog", "--from", day(D0 + 2), "--shards", "4"));
        assertEquals("shards: --from must be " + day(D0 + 3) + " or later (the day after tomorrow, UTC by AWS's clock, when"
                + " the change is written, two minutes from now at most): the functions keep the map up to a minute, so a day"
                + " that has begun, or tomorrow, cannot change.\n", err());
        // half a minute before midnight, the day after tomorrow is tomorrow by the time the change is written
        Clock lateAtNight = Clock.fixed(Instant.ofEpochMilli(TimeBuckets.startOf(D0 + 2) - 30_000L), ZoneOffset.UTC);
        assertEquals(1, shards(lateAtNight, "set", "syslog", "--from", day(D0 + 3), "--shards", "4"));
        assertTrue(err().startsWith("shards: --from must be " + day(D0 + 4) + " or later"), err());
        assertEquals(1, shards("set", "syslog", "--from", day(D0 + 3), "--shards", "17"));
        assertTrue(err().startsWith("shards: --shards must be a whole number from 1 to 16.\n"), err());
        assertEquals(1, shards("set", "syslog", "--from", "23.03.2015", "--shards", "4"));
        assertTrue(err().startsWith("shards: --from must be a date as YYYY-MM-DD, not \"23.03.2015\".\n"), err());
        assertEquals(1, shards("set", "Sys#log", "--from", day(D0 + 3), "--shards", "4"));
        assertTrue(err().startsWith("shards: WHAT must be a slug"), err());
        assertEquals(1, shards("set", "syslog", "--shards", "4"));
        assertEquals(1, shards("drop", "syslog"));
        assertEquals(0, shards("show"));
        assertTrue(out().startsWith("no WHAT is sharded"), "nothing refused was written");

        // a change is written twice, a minute apart: first read by every function, then written by them
        assertEquals(0, shards("set", "syslog", "--from", day(D0 + 3), "--shards", "4"));
        assertEquals("set: syslog into 4 shard(s) from " + day(D0 + 3) + " on (revision 2).\n"
                + "shard map of " + h.recordsTable + " (revision 2):\n"
                + "  syslog  from " + day(D0 + 3) + "  4 shards\n", out());
        assertEquals("waiting 61 s: every function reads the new layout before any writes it.\n"
                + ShardsCommand.PYTHON_WARNING + "\n", err());
        assertEquals(List.of("61 s: reads [1, 4], writes 1"), pauses);
        assertEquals(0, shards("set", "syslog", "--from", day(D0 + 10), "--shards", "4"));
        assertTrue(out().startsWith("unchanged: syslog already has 4 shard(s) from " + day(D0 + 10) + " on."), out());
        // a layout the map reads already (the plain key) needs no minute of reading first
        assertEquals(0, shards("set", "syslog", "--from", day(D0 + 10), "--shards", "1"));
        assertEquals(1, pauses.size());
        assertEquals(0, shards("show"));
        assertEquals("shard map of " + h.recordsTable + " (revision 3):\n"
                + "  syslog  from " + day(D0 + 3) + "  4 shards\n"
                + "  syslog  from " + day(D0 + 10) + "  unsharded\n", out());

        // a change that replaces a layout leaves it read: files dated ahead may be under it
        assertEquals(0, shards("set", "syslog", "--from", day(D0 + 3), "--shards", "8"));
        assertEquals("shard map of " + h.recordsTable + " (revision 5):\n"
                + "  syslog  from " + day(D0 + 3) + "  8 shards\n"
                + "  syslog  from " + day(D0 + 3) + "  4 shards  (earlier: still read)\n",
                out().substring(out().indexOf('\n') + 1));
        assertEquals("61 s: reads [4, 1, 8], writes 4", pauses.get(1));
    }

    @Test
    void aRerunOfAChangeStoppedAfterItsAnnouncementWaitsWhatIsLeftOfTheMinute() {
        // given a change stopped 20 s ago between its two writes: the map reads syslog's 4 shards, writes 1
        ShardMapTable table = new ShardMapTable(h.operator.dynamoDb(), h.recordsTable);
        table.write(ShardMap.EMPTY.withEarlier("syslog", new ShardMap.Entry(D0 + 3, 4)), 0, TODAY.millis() - 20_000);

        // when the same command runs again
        assertEquals(0, shards("set", "syslog", "--from", day(D0 + 3), "--shards", "4"));

        // then it waits the 41 s left of the readers' minute (not a new minute, nor none), and the 2 s two
        // readings of AWS's clock may be apart, then writes the layout
        assertEquals(List.of("43 s: reads [1, 4], writes 1"), pauses);
        assertTrue(err().startsWith("waiting 43 s: every function reads the new layout before any writes it.\n"), err());
        assertEquals(List.of(4, 1), table.current().layouts("syslog", D0 + 3));
        assertEquals(2, table.read().revision());
    }

    @Test
    void aRerunLongAfterAChangeStoppedAfterItsAnnouncementWritesTheLayoutAtOnce() {
        // given a change stopped ten minutes ago between its two writes
        ShardMapTable table = new ShardMapTable(h.operator.dynamoDb(), h.recordsTable);
        table.write(ShardMap.EMPTY.withEarlier("syslog", new ShardMap.Entry(D0 + 3, 4)), 0, TODAY.millis() - 600_000);

        // when the same command runs again, then every function has read the layout: no wait
        assertEquals(0, shards("set", "syslog", "--from", day(D0 + 3), "--shards", "4"));
        assertEquals(List.of(), pauses);
        assertEquals(List.of(4, 1), table.current().layouts("syslog", D0 + 3));
    }

    @Test
    void ctrlCWhileAChangeWaitsSaysWhatTheMapIsLeftAsAndTheSameCommandFinishesIt() throws Exception {
        // given scripts/shards.sh set in its own JVM, as the script runs it, waiting its minute
        String from = ShardChange.earliestDay(Clock.systemUTC()).plusDays(1).toString();
        Path module = Path.of("").toAbsolutePath();
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", module.resolve("target/classes") + ":" + Files.readString(module.resolve("target/classpath.txt")).strip(),
                "datalake.tools.ShardsCommand", "set", "syslog", "--from", from, "--shards", "4");
        Map<String, String> env = new HashMap<>(h.stack.backfill().environment());
        env.putAll(h.operator.endpointEnvironment());
        env.remove("JAVA_TOOL_OPTIONS"); // the function's, which a JVM announces on stderr
        builder.environment().putAll(env);
        Process process = builder.redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader stderr = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8));
            assertEquals("waiting 61 s: every function reads the new layout before any writes it.", stderr.readLine());

            // when the operator presses Ctrl-C (SIGINT, as a terminal sends it)
            assertEquals(0, new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor());

            // then it says in one sentence what the map is left as, and to run the same command again
            assertTrue(process.waitFor(60, TimeUnit.SECONDS));
            assertEquals(List.of("shards: stopped before the new layout was written: the map reads syslog into 4 shard(s)"
                    + " from " + from + " and still writes the old layout; run the same command again to finish the"
                    + " change."), stderr.lines().toList());
            ShardMap left = new ShardMapTable(h.operator.dynamoDb(), h.recordsTable).current();
            long day = LocalDate.parse(from).toEpochDay();
            assertEquals(List.of(1, 4), left.layouts("syslog", day));
        } finally {
            process.destroyForcibly();
        }

        // and the same command, run half a minute later, finishes it, waiting only what is left of the minute
        // (and the uncertainty of AWS's clock)
        assertEquals(0, shards(Clock.offset(Clock.systemUTC(), Duration.ofSeconds(30)), "set", "syslog", "--from", from,
                "--shards", "4"));
        long waited = Long.parseLong(err().substring("waiting ".length(), err().indexOf(" s:")));
        assertTrue(waited > 0 && waited <= 33, err());
        assertEquals(List.of(4, 1), new ShardMapTable(h.operator.dynamoDb(), h.recordsTable).current()
                .layouts("syslog", LocalDate.parse(from).toEpochDay()));
    }

    @Test
    void backfillAndReconcileFollowAShardedWhat() throws Exception {
        // given a file of D0 and one dated ahead (D0 + 3), backfilled before any map: both under plain keys
        h.putAll(Map.of("logs/plain.log", ToolsHarness.metadata("web-1", "plain", START),
                "logs/ahead.log", ToolsHarness.metadata("web-1", "ahead", START + 3 * TimeBuckets.DAY_MS)));
        Target target = Target.parse("s3://" + h.bucket + "/logs/");
        backfill(h.ingester, target);

        // when syslog is sharded into 4 from D0 + 3 (web-1's shard among 4 is 3)
        assertEquals(0, shards("set", "syslog", "--from", day(D0 + 3), "--shards", "4"));

        // then the file dated ahead stays under its earlier layout, which the map still reads (so time
        // queries find it), and reconcile names it and --fix moves it under the shard the map writes
        assertEquals(List.of(4, 1), new ShardMapTable(h.operator.dynamoDb(), h.recordsTable).current()
                .layouts("syslog", D0 + 3));
        assertEquals(Set.of("differing " + h.url("logs/ahead.log") + ": records: index 1, object 1 (under other shard"
                + " keys than the shard map gives their days: written before a change)"), findings(target, false, true));
        assertEquals(Set.of("differing " + h.url("logs/ahead.log")), findings(target, true));
        assertEquals(Set.of(), findings(target, false), "the map item is never drift");
        assertEquals(List.of(D0 + ":syslog", (D0 + 3) + ":syslog#3"), keys());

        // when a file of a sharded day is backfilled, then deleted behind the index's back
        h.put("logs/later.log", ToolsHarness.metadata("web-2", "later", START + 4 * TimeBuckets.DAY_MS));
        Tools later = h.newRun();
        try {
            backfill(later.ingester(), target);
        } finally {
            later.ingester().close(); // the operator's clients are the harness's: only the run's ingester closes
        }
        assertEquals(List.of(D0 + ":syslog", (D0 + 3) + ":syslog#3", (D0 + 4) + ":syslog#2"), keys());
        AWS.s3().deleteObject(r -> r.bucket(h.bucket).key("logs/later.log"));

        // then reconcile finds the orphan on its sharded day (and the latest entry naming it), and --fix leaves none
        assertEquals(Set.of("orphaned " + h.url("logs/later.log"), "stale_latest " + h.url("logs/later.log")),
                findings(target, true));
        assertEquals(Set.of(), findings(target, false));
        assertEquals(List.of(D0 + ":syslog", (D0 + 3) + ":syslog#3"), keys());
    }

    private void backfill(datalake.ingester.Ingester ingester, Target target) {
        new Backfill(h.operator.s3(), ingester, Clock.systemUTC()).run(new Backfill.Options(target, null, 1000, 2, 10),
                () -> false);
    }

    /** A reconcile as a new run of the command (its own ingester and map). */
    private Set<String> findings(Target target, boolean fix) {
        return findings(target, fix, false);
    }

    /** The drift found, as {@code "<drift> <url>"}, with {@code ": <detail>"} when asked. */
    private Set<String> findings(Target target, boolean fix, boolean details) {
        Set<String> found = new TreeSet<>();
        Tools run = h.newRun();
        try {
            Reconcile.Result result = ReconcileCommand.of(run, 8).run(target, fix);
            result.findings().forEach(f -> found.add(f.drift().label + " " + f.url() + (details ? ": " + f.detail() : "")));
            assertEquals(List.of(), result.unfixed());
        } finally {
            run.ingester().close();
        }
        return found;
    }

    private List<String> keys() {
        return h.records().stream().map(Record::timeIndexKey).map(Object::toString).sorted().toList();
    }
}
