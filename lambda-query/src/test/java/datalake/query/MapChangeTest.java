package datalake.query;

import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;
import static datalake.query.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.dynamodb.CachedShardMap;
import datalake.dynamodb.StoredRecord;
import datalake.records.Record;
import datalake.records.RecordFactory;
import datalake.records.ShardMap;
import datalake.records.ShardMapSource;
import datalake.records.TimeBuckets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * No map change hides a file: files of a day a change re-keys, written under whatever map a function
 * holds (in the minute functions keep a map, or long before the change when dated ahead), are found by
 * time queries, counted by coverage and seen by the latest scan, each once, whatever map the reader holds.
 */
class MapChangeTest {
    /** Noon of T0's day: a change may re-key the day after tomorrow on ({@code scripts/shards.sh}). */
    private static final long NOW = T0 + DAY / 2;
    private static final long D = TimeBuckets.bucketOf(T0) + 2;
    private static final ShardMap BEFORE = ShardMap.EMPTY;
    private static final ShardMap.Entry FOUR = new ShardMap.Entry(D, 4);
    /** w in 2 shards from before D, then in 4 from D: shard s of 2 is the same key as shard s of 4. */
    private static final ShardMap TWO = BEFORE.with("w", new ShardMap.Entry(D - 5, 2));
    private static final ShardMap TWO_THEN_FOUR = TWO.with("w", FOUR);
    /** A WHERE whose shard the change from 2 to 4 moves (its shard of 4 is 2 or 3). */
    private static final String MOVED_WHERE = IntStream.range(0, 100).mapToObj(i -> "web-" + i)
            .filter(w -> ShardMap.shardOf(w, 4) != ShardMap.shardOf(w, 2)).findFirst().orElseThrow();
    private final MovingClock clock = new MovingClock(NOW);
    /** The map item, as the functions read it. */
    private final AtomicReference<ShardMap> stored = new AtomicReference<>(BEFORE);
    private final InMemoryRecordsTable table = new InMemoryRecordsTable();
    private final ExecutorService executor = Executors.newFixedThreadPool(4);
    private final ExecutorService shardExecutor = Executors.newFixedThreadPool(8);

    @AfterEach
    void stop() {
        executor.shutdownNow();
        shardExecutor.shutdownNow();
    }

    /** A function's map: read from the item at most once a minute, as every function keeps it. */
    private CachedShardMap function() {
        return new CachedShardMap(stored::get, clock);
    }

    /** A file of WHAT w written by a function holding {@code map}; its records as written. */
    private List<Record> write(ShardMapSource map, String id, String where, long start) {
        List<Record> records = new RecordFactory(TimeBuckets.DEFAULT_MAX_SPAN, null, map)
                .records(file(id, "w", where, start, null), "s3://bucket/" + id, 1_000L, 42L);
        table.put(records);
        return records;
    }

    /** The ids a time query of the day finds (at {@code where}, unless null), paged two at a time. */
    private List<String> found(ShardMapSource map, long day, String where) {
        TimeQueryPager pager = new TimeQueryPager(new BucketReader(table, map, shardExecutor), executor,
                new TimeQueryPager.Limits(2, 1, 1, 2, 1));
        FilesQuery.ByTime query = new FilesQuery.ByTime("w", where, TimeBuckets.startOf(day),
                TimeBuckets.startOf(day + 1) - 1);
        List<String> ids = new ArrayList<>();
        Cursor cursor = null;
        do {
            Page page = pager.page(query, cursor);
            page.records().forEach(r -> ids.add(r.id()));
            cursor = page.next();
        } while (cursor != null);
        return ids;
    }

    /** The files coverage counts on the day. */
    private long covered(ShardMapSource map, long day) {
        return new CoverageReader(new BucketReader(table, map, shardExecutor), executor)
                .read(new CoverageQuery("w", null, TimeBuckets.startOf(day), TimeBuckets.startOf(day + 1) - 1,
                        CoverageQuery.Step.DAY)).files()[0];
    }

    /** The latest file of a WHERE, by the scan of the day buckets, once the clock is at noon of {@code day}. */
    private Optional<String> latest(ShardMapSource map, long day, String where) {
        clock.set(TimeBuckets.startOf(day) + DAY / 2);
        return new LatestFinder(new BucketReader(table, map, shardExecutor), null, executor, clock)
                .find("w", where, 14).map(StoredRecord::id);
    }

    @Test
    void filesArrivingInTheMinutesOfAChangeAreFoundWhicheverMapTheReaderHolds() {
        // given the change made as scripts/shards.sh makes it: its layout read first, written a minute later;
        // one function reads the map just before the second write, another in the minute after it
        clock.advance(1_000);
        stored.set(BEFORE.withEarlier("w", FOUR));
        clock.advance(60_000);
        CachedShardMap behind = function();
        behind.current();
        clock.advance(1_000);
        stored.set(BEFORE.with("w", FOUR));
        clock.advance(28_000);
        CachedShardMap ahead = function();

        // when files of the day it re-keys arrive at both, within the minute a function keeps its map
        Record old = write(behind, "by-behind", "web-1", TimeBuckets.startOf(D) + 1_000).get(0);
        Record sharded = write(ahead, "by-ahead", "web-2", TimeBuckets.startOf(D) + 2_000).get(0);

        // then they are under two layouts, and a reader holding either map finds both, each once
        assertFalse(old.timeIndexKey().sharded(), "the function a change behind writes the plain key");
        assertTrue(sharded.timeIndexKey().sharded());
        for (ShardMapSource reader : List.of(behind, ahead)) {
            assertEquals(List.of("by-behind", "by-ahead"), found(reader, D, null));
            assertEquals(List.of("by-behind"), found(reader, D, "web-1"));
            assertEquals(List.of("by-ahead"), found(reader, D, "web-2"));
            assertEquals(2, covered(reader, D));
        }
        assertEquals(Optional.of("by-behind"), latest(ahead, D, "web-1"));
    }

    @Test
    void aFileDatedAYearAheadOfAChangeIsFound() {
        // given a file dated a year ahead, written before the WHAT was sharded
        write(function(), "ahead", "web-1", TimeBuckets.startOf(D + 365) + 5);

        // when the WHAT is sharded from D on, and another file of that day comes after the change
        stored.set(BEFORE.withEarlier("w", FOUR));
        clock.advance(61_000);
        stored.set(BEFORE.with("w", FOUR));
        clock.advance(60_000);
        CachedShardMap reader = function();
        write(reader, "after", "web-2", TimeBuckets.startOf(D + 365) + 10);

        // then both are found, counted and, when the day comes, the latest of their WHEREs
        assertEquals(List.of("ahead", "after"), found(reader, D + 365, null));
        assertEquals(List.of("ahead"), found(reader, D + 365, "web-1"));
        assertEquals(2, covered(reader, D + 365));
        assertEquals(Optional.of("ahead"), latest(reader, D + 365, "web-1"));
    }

    @Test
    void aFileUnderTwoLayoutsWhileItIsMovedComesOnceAndCountsOnce() {
        // given a file of D written plain, then again under its shard, the plain record not yet deleted
        write(() -> BEFORE, "moved", "web-1", TimeBuckets.startOf(D) + 5);
        write(() -> BEFORE, "plain", "web-0", TimeBuckets.startOf(D) + 6);
        ShardMap after = BEFORE.with("w", FOUR);
        write(() -> after, "moved", "web-1", TimeBuckets.startOf(D) + 5);

        // then a reader finds it once, in its place, and counts it once
        assertEquals(List.of("plain", "moved"), found(() -> after, D, null));
        assertEquals(List.of("moved"), found(() -> after, D, "web-1"));
        assertEquals(2, covered(() -> after, D));
    }

    @Test
    void aWhereWhoseShardAChangeOfShardCountMovesIsFoundUnderBothWhilePagedInsideIt() {
        // given w in 2 shards, then in 4 from D on: shard s of 2 is shard s of 4 too (the same key), so a
        // WHERE whose shard the change moves has files of D under another key of the current layout
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String id = String.format("f%02d", i);
            ShardMap writer = i % 3 == 0 ? TWO : TWO_THEN_FOUR; // dated ahead of the change, or written after it
            write(() -> writer, id, MOVED_WHERE, TimeBuckets.startOf(D) + i);
            ids.add(id);
        }
        write(() -> TWO_THEN_FOUR, "other", "web-zz", TimeBuckets.startOf(D) + 50);
        ids.add("other");
        assertEquals(List.of(1, 2), TWO_THEN_FOUR.layouts("w", D).subList(1, 3),
                "the day is read under 4, 1 and 2 shards");

        // when the day is paged two files at a time, the cursor inside that WHERE from the second page on
        // then every file comes, once and in order, as with the WHERE named
        assertEquals(ids, found(() -> TWO_THEN_FOUR, D, null));
        assertEquals(ids.subList(0, 12), found(() -> TWO_THEN_FOUR, D, MOVED_WHERE));
        assertEquals(13, covered(() -> TWO_THEN_FOUR, D));
    }

    @Test
    void aFileMovedBetweenTwoShardCountsCountsOnceWhileItIsUnderBoth() {
        // given w in 2 shards, then in 4: a WHERE whose shard the change moves, with a file under the earlier
        // layout only (dated ahead of the change), one under both (a handler moving it) and one under the new
        write(() -> TWO, "ahead", MOVED_WHERE, TimeBuckets.startOf(D) + 1);
        write(() -> TWO, "moving", MOVED_WHERE, TimeBuckets.startOf(D) + 2);
        write(() -> TWO_THEN_FOUR, "moving", MOVED_WHERE, TimeBuckets.startOf(D) + 2);
        write(() -> TWO_THEN_FOUR, "after", MOVED_WHERE, TimeBuckets.startOf(D) + 3);
        write(() -> TWO_THEN_FOUR, "other", "web-zz", TimeBuckets.startOf(D) + 4);

        // then coverage counts each file once, and a time query finds each once
        assertEquals(4, covered(() -> TWO_THEN_FOUR, D));
        assertEquals(List.of("after", "ahead", "moving", "other"),
                found(() -> TWO_THEN_FOUR, D, null).stream().sorted().toList());
        assertEquals(Optional.of("after"), latest(() -> TWO_THEN_FOUR, D, MOVED_WHERE));
    }

    /** A clock the test moves. */
    private static final class MovingClock extends Clock {
        private volatile long millis;

        MovingClock(long millis) {
            this.millis = millis;
        }

        void advance(long by) {
            millis += by;
        }

        void set(long to) {
            millis = to;
        }

        @Override
        public long millis() {
            return millis;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
