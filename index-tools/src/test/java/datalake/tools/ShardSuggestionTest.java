package datalake.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.emulators.template.Repository;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/shards.sh suggest} fed the busiest hour of {@code scripts/scale_sim.py} (its own code,
 * {@code --emit-counts}), checked against docs/SCALE.md's arithmetic: at 100 million files a day the top
 * WHAT's key peaks at 1,709 writes a second, over a partition's 1,000, and S = 4 gives each shard ~430;
 * at 1 and 10 million nothing is to be sharded. The same hour, counted a minute at a time as Contributor
 * Insights counts it, gives the same answer.
 */
class ShardSuggestionTest {
    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-26T12:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path dir;

    @Test
    void at100MillionADayTheTopWhatIsShardedIntoFour() throws Exception {
        // given the busiest hour at 100 million files a day, a second at a time
        Path counts = busiestHour(100_000_000);

        // when suggest reads it
        ShardSuggestion.Result result = ShardSuggestion.of(CountsFile.read(counts, 1));
        String printed = suggest("suggest", "--from-counts", counts.toString());

        // then the top WHAT, and it alone, is to be sharded: 1,709 a second into 4 shards of at most ~430
        assertEquals(40, result.whats());
        assertEquals(1, result.shard().size(), printed);
        ShardSuggestion.Shard top = result.shard().get(0);
        assertEquals("what01", top.peak().what());
        assertEquals(1709, top.peak().perSecond());
        assertEquals(4, top.shards());
        assertTrue(top.perShard() <= 430 && top.perShard() > 1000.0 / 3, "~430/s a shard: " + top.perShard());
        // and the next WHATs, under a partition at their busiest second, are only to be watched
        assertEquals(List.of("what02 938", "what03 807"), result.watch().stream()
                .map(p -> p.what() + " " + Math.round(p.perSecond())).toList());
        assertTrue(printed.contains("  what01  1,709/s on 2026-01-01 (171% of a partition): 4 shards, ~427/s a shard\n"
                + "    scripts/shards.sh set what01 --from 2026-11-28 --shards 4\n"), printed);
        assertTrue(printed.contains("watch (over 80% of a partition):\n  what02  938/s on 2026-01-01 (94% of a partition)\n"
                + "  what03  807/s on 2026-01-01 (81% of a partition)\n"),
                printed);
    }

    @Test
    void at1And10MillionADayNothingIsSharded() throws Exception {
        for (int filesPerDay : List.of(1_000_000, 10_000_000)) {
            // given the busiest hour at that scale (the top key peaks at 185 and 526 a second)
            Path counts = busiestHour(filesPerDay);

            // when suggest reads it
            ShardSuggestion.Result result = ShardSuggestion.of(CountsFile.read(counts, 1));
            String printed = suggest("suggest", "--from-counts", counts.toString());

            // then nothing is to be sharded, nor watched
            assertEquals(List.of(), result.shard(), printed);
            assertEquals(List.of(), result.watch(), printed);
            assertEquals(filesPerDay == 1_000_000 ? 185 : 526, busiest(counts, "20454:what01"));
            assertTrue(printed.contains("nothing to shard: no WHAT's busiest second is over a partition's 1,000 writes."),
                    printed);
        }
    }

    @Test
    void theSameHourAMinuteAtATimeAsContributorInsightsCountsItGivesTheSameAnswer() throws Exception {
        for (int filesPerDay : List.of(10_000_000, 100_000_000)) {
            // given the busiest hour, its seconds added up into minutes, as a Contributor Insights report has them
            Path counts = busiestHour(filesPerDay);
            WriteCounts minutes = new WriteCounts(60);
            Map<String, Map<Long, Long>> perKey = perKeyAndSecond(counts);
            perKey.forEach((key, seconds) -> seconds.forEach((second, n) -> minutes.add(key, second / 60, n)));

            // when the suggestion is made from the minutes
            ShardSuggestion.Result result = ShardSuggestion.of(minutes);

            // then it shards the same WHATs into as many shards: the busiest minute's 1,067/s x 1.6 is ~1,707/s
            List<String> expected = filesPerDay == 100_000_000 ? List.of("what01 4") : List.of();
            assertEquals(expected, result.shard().stream().map(s -> s.peak().what() + " " + s.shards()).toList());
        }
    }

    @Test
    void shardsBringTheBusiestSecondToHalfAPartitionAShard() {
        assertEquals(3, ShardSuggestion.shards(1001));
        assertEquals(4, ShardSuggestion.shards(1709));
        assertEquals(4, ShardSuggestion.shards(2000));
        assertEquals(5, ShardSuggestion.shards(2001));
        assertEquals(16, ShardSuggestion.shards(8000));
        assertEquals(16, ShardSuggestion.shards(50_000), "16 is the most a WHAT may have");
    }

    @Test
    void aShardedDaysKeysCountTogetherAndOtherKeysNotAtAll() {
        // given a WHAT already in 2 shards, each under a partition but together over it, and keys of no day
        WriteCounts counts = new WriteCounts(1);
        counts.add("20454:syslog#0", 7, 700);
        counts.add("20454:syslog#1", 7, 650);
        assertEquals(false, counts.add("s3://bucket/a,b.txt", 7, 5000));
        assertEquals(false, counts.add("#shard-map", 7, 5000));

        // then the WHAT's busiest second is theirs together, and it needs 3 shards
        ShardSuggestion.Result result = ShardSuggestion.of(counts);
        assertEquals(1, result.whats());
        assertEquals(1350, result.shard().get(0).peak().perSecond());
        assertEquals(3, result.shard().get(0).shards());
    }

    @Test
    void countsOfARunScaledDownAreScaledBackUp() throws IOException {
        // given a scaled-down run's counts (scripts/bench.sh's part 8 divides by 40): 43 writes in a second
        Path file = dir.resolve("counts.csv");
        Files.writeString(file, "key,second,writes\n20454:what01,3,43\ns3://b/k,with,comma,3,9\n");

        // then times 40 it is 1,720 a second, 4 shards
        ShardSuggestion.Result result = ShardSuggestion.of(CountsFile.read(file, 40));
        assertEquals(1720, result.shard().get(0).peak().perSecond());
        assertEquals(4, result.shard().get(0).shards());
    }

    @Test
    void aFileThatIsNotCountsIsRefusedWithItsLine() throws IOException {
        Path file = dir.resolve("bad.csv");
        Files.writeString(file, "key,second,writes\n20454:what01,3,many\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = ShardsCommand.run(new String[] {"suggest", "--from-counts", file.toString()}, new PrintStream(
                new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8), () -> {
                    throw new AssertionError("no table is needed");
                }, NOW, d -> { });

        assertEquals(1, status);
        assertEquals("shards: " + file + " line 2 is not \"key,second,writes\" with whole numbers: 20454:what01,3,many\n",
                err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void suggestsOptionsAreCheckedBeforeAnythingIsRead() {
        for (String[] args : List.of(new String[] {"suggest", "--factor", "40"},
                new String[] {"suggest", "--from-counts", "f.csv", "--hours", "2"},
                new String[] {"suggest", "--hours", "0"}, new String[] {"suggest", "--shards", "4"},
                new String[] {"show", "--from-counts", "f.csv"})) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int status = ShardsCommand.run(args, new PrintStream(new ByteArrayOutputStream()),
                    new PrintStream(err, true, StandardCharsets.UTF_8), () -> {
                        throw new AssertionError("nothing is read for " + List.of(args));
                    }, NOW, d -> { });
            assertEquals(1, status, List.of(args).toString());
            assertTrue(err.toString(StandardCharsets.UTF_8).contains(ShardsCommand.USAGE), List.of(args).toString());
        }
    }

    /** scripts/scale_sim.py's busiest hour at {@code filesPerDay}, per day key and second. */
    private Path busiestHour(int filesPerDay) throws IOException, InterruptedException {
        Path root = Repository.root();
        Path out = dir.resolve("counts-" + filesPerDay + ".csv");
        Process python = new ProcessBuilder("python3", root.resolve("scripts/scale_sim.py").toString(), "--emit-counts",
                out.toString(), "--files-per-day", Integer.toString(filesPerDay)).redirectErrorStream(true).start();
        String said = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(python.waitFor(120, TimeUnit.SECONDS), "scale_sim.py returns");
        assertEquals(0, python.exitValue(), said);
        return out;
    }

    private static Map<String, Map<Long, Long>> perKeyAndSecond(Path counts) throws IOException {
        Map<String, Map<Long, Long>> perKey = new TreeMap<>();
        for (String line : Files.readAllLines(counts).subList(1, Files.readAllLines(counts).size())) {
            String[] f = line.split(",");
            perKey.computeIfAbsent(f[0], k -> new TreeMap<>()).put(Long.parseLong(f[1]), Long.parseLong(f[2]));
        }
        return perKey;
    }

    private static long busiest(Path counts, String key) throws IOException {
        return perKeyAndSecond(counts).get(key).values().stream().mapToLong(Long::longValue).max().orElseThrow();
    }

    private static String suggest(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = ShardsCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), () -> {
                    throw new AssertionError("no table is needed");
                }, NOW, d -> { });
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }
}
