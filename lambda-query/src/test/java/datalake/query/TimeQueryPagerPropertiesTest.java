package datalake.query;

import static datalake.query.TestFiles.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.query.FileLayouts.FileSpec;
import datalake.query.FileLayouts.Window;
import datalake.records.Metadata;
import datalake.records.Record;
import datalake.records.ShardMap;
import datalake.dynamodb.StoredRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Every matching file exactly once, in the order of an unsharded table, across the pages of a time query,
 * whatever the files, the query window, the WHERE, the shard map (none, or sharded from a day the window
 * may cross, and changed again later; files written under the layout before the change, after it, or
 * both) and the pager's limits (page size, wave, budget, slice size, first share): the two read rounds of
 * a wave, the merge of a sharded day's shards and the cursors between pages must never skip, repeat or
 * reorder a file.
 */
class TimeQueryPagerPropertiesTest {
    private static final ExecutorService EXECUTOR = Executors.newFixedThreadPool(8, runnable -> {
        Thread thread = new Thread(runnable);
        thread.setDaemon(true);
        return thread;
    });
    /** Runs a sharded day's shard reads (never the pager's own pool: its tasks wait for these). */
    private static final ExecutorService SHARD_EXECUTOR = Executors.newFixedThreadPool(8, runnable -> {
        Thread thread = new Thread(runnable);
        thread.setDaemon(true);
        return thread;
    });
    private static final List<String> WHERES = List.of("web", "web2", "db", "db-1", "a", "webserver01");

    @AfterContainer
    static void stop() {
        EXECUTOR.shutdownNow();
        SHARD_EXECUTOR.shutdownNow();
    }

    @Property(tries = 300)
    void everyMatchingFileComesExactlyOnce(
            @ForAll("files") List<FileSpec> specs,
            @ForAll("windows") Window window,
            @ForAll("limits") TimeQueryPager.Limits limits,
            @ForAll("where") String where,
            @ForAll("shardings") FileLayouts.Sharding sharding) {
        pagesHoldEveryMatchOnceInOrder(FileLayouts.metadata(specs, T0, WHERES), window, limits, where, sharding);
    }

    /**
     * The same for a narrow window (ten minutes to four hours) of a busy sharded day, read with slices large
     * enough for a sharded day's keys to be read ahead of their turn (DayReader's scan): the merge must
     * still hand out each file once, in order, whatever was read ahead.
     */
    @Property(tries = 200)
    void aNarrowWindowOfABusyShardedDayComesWholeAndInOrder(
            @ForAll("busyDay") List<FileSpec> specs,
            @ForAll("narrowWindows") Window window,
            @ForAll("largeSlices") TimeQueryPager.Limits limits,
            @ForAll("where") String where,
            @ForAll("shardedBefore") FileLayouts.Sharding sharding) {
        pagesHoldEveryMatchOnceInOrder(FileLayouts.metadata(specs, T0, WHERES), window, limits, where, sharding);
    }

    /**
     * The same for a whole busy sharded day without a WHERE, read with large slices: a page whose cursor
     * lies in the WHERE it goes on in reads only the keys that can hold that WHERE until it runs out
     * (DayReader), whatever else those keys read ahead, then every key from there.
     */
    @Property(tries = 200)
    void aWholeBusyShardedDayComesWholeAndInOrder(
            @ForAll("busyDay") List<FileSpec> specs,
            @ForAll("largeSlices") TimeQueryPager.Limits limits,
            @ForAll("shardedBefore") FileLayouts.Sharding sharding) {
        pagesHoldEveryMatchOnceInOrder(FileLayouts.metadata(specs, T0, WHERES), new Window(0, 0, 0, TestFiles.DAY - 1),
                limits, "", sharding);
    }

    /**
     * The same when each file was written by a function holding the map from before the last change (the
     * minute a function keeps its map, or a file dated ahead of the change), after it, or both (a handler
     * moving it between the two): the reader holds the latest map, and every file comes once, in order.
     */
    @Property(tries = 300)
    void filesWrittenUnderTheLayoutBeforeAChangeComeExactlyOnce(
            @ForAll("files") List<FileSpec> specs,
            @ForAll("windows") Window window,
            @ForAll("limits") TimeQueryPager.Limits limits,
            @ForAll("where") String where,
            @ForAll("changed") FileLayouts.Sharding sharding,
            @ForAll long writers) {
        List<Metadata> files = FileLayouts.metadata(specs, T0, WHERES);
        ShardMap after = sharding.map(T0);
        ShardMap before = sharding.laterDays() < 0 ? ShardMap.EMPTY
                : new FileLayouts.Sharding(true, sharding.firstDay(), sharding.shards(), -1, 1).map(T0);
        Random random = new Random(writers);
        List<Record> records = new ArrayList<>();
        for (Metadata file : files) {
            int writer = random.nextInt(3);
            if (writer != 1) {
                records.addAll(TestFiles.records(List.of(file), before));
            }
            if (writer != 0) {
                records.addAll(TestFiles.records(List.of(file), after));
            }
        }
        pagesHoldEveryMatchOnceInOrder(files, new InMemoryRecordsTable().put(records), window, limits, where, after);
    }

    private static void pagesHoldEveryMatchOnceInOrder(List<Metadata> files, Window window,
            TimeQueryPager.Limits limits, String where, FileLayouts.Sharding sharding) {
        ShardMap shards = sharding.map(T0);
        pagesHoldEveryMatchOnceInOrder(files, new InMemoryRecordsTable().put(TestFiles.records(files, shards)), window,
                limits, where, shards);
    }

    private static void pagesHoldEveryMatchOnceInOrder(List<Metadata> files, InMemoryRecordsTable table, Window window,
            TimeQueryPager.Limits limits, String where, ShardMap shards) {
        long start = window.start(T0);
        long end = window.end(T0);
        FilesQuery.ByTime query = new FilesQuery.ByTime("w", where.isEmpty() ? null : where, start, end);
        TimeQueryPager pager = new TimeQueryPager(new BucketReader(table, () -> shards, SHARD_EXECUTOR), EXECUTOR,
                limits);

        List<StoredRecord> got = new ArrayList<>();
        Cursor cursor = null;
        int pages = 0;
        do {
            Page page = pager.page(query, cursor == null ? null : CursorCodec.decode(query, CursorCodec.encode(query, cursor)));
            assertTrue(page.records().size() <= limits.pageSize(), "a page holds at most pageSize records");
            got.addAll(page.records());
            cursor = page.next();
            pages++;
        } while (cursor != null && pages < 100_000);

        Set<String> expected = FileLayouts.matching(files, start, end, query.where());
        assertEquals(expected.size(), got.size(), "as many files as match: none twice, none missing");
        assertEquals(expected, new HashSet<>(got.stream().map(StoredRecord::id).toList()));
        List<StoredRecord> unsharded = new ArrayList<>(got);
        unsharded.sort(Comparator.comparingLong(StoredRecord::bucket).thenComparing(StoredRecord::rangeKey));
        assertEquals(unsharded, got, "in day order, each day in range-key order: the unsharded table's order");
    }

    @Provide
    Arbitrary<FileLayouts.Sharding> shardings() {
        return FileLayouts.shardings();
    }

    /** Sharded from a day the window may cross, then changed to another count of shards (1 among them). */
    @Provide
    Arbitrary<FileLayouts.Sharding> changed() {
        return Combinators.combine(
                Arbitraries.integers().between(-1, 6),
                Arbitraries.integers().between(2, 6),
                Arbitraries.integers().between(-1, 6),
                Arbitraries.integers().between(1, 8)).as((first, shards, later, then) ->
                        new FileLayouts.Sharding(true, first, shards, later, then));
    }

    @Provide
    Arbitrary<List<FileSpec>> files() {
        return FileLayouts.files(WHERES.size(), 250);
    }

    @Provide
    Arbitrary<Window> windows() {
        return FileLayouts.windows();
    }

    @Provide
    Arbitrary<TimeQueryPager.Limits> limits() {
        return Combinators.combine(
                Arbitraries.integers().between(1, 15),
                Arbitraries.integers().between(1, 6),
                Arbitraries.integers().between(0, 12),
                Arbitraries.integers().between(1, 8),
                Arbitraries.integers().between(1, 6)).as((page, wave, extraBudget, slice, share) ->
                        new TimeQueryPager.Limits(page, wave, wave + extraBudget, slice, share));
    }

    @Provide
    Arbitrary<List<FileSpec>> busyDay() {
        Arbitrary<FileSpec> file = Combinators.combine(
                Arbitraries.longs().between(0, TestFiles.DAY - 1),
                Arbitraries.integers().between(0, WHERES.size() - 1)).as((offset, w) -> new FileSpec(0, offset, -1, w));
        return file.list().ofMinSize(100).ofMaxSize(600);
    }

    @Provide
    Arbitrary<Window> narrowWindows() {
        return Combinators.combine(
                Arbitraries.longs().between(0, TestFiles.DAY - 1),
                Arbitraries.longs().between(600_000L, 4 * 3_600_000L)).as((start, length) ->
                        new Window(0, start, 0, Math.min(TestFiles.DAY - 1, start + length)));
    }

    @Provide
    Arbitrary<TimeQueryPager.Limits> largeSlices() {
        return Combinators.combine(
                Arbitraries.integers().between(1, 40),
                Arbitraries.integers().between(1, 4),
                Arbitraries.integers().between(10, 400),
                Arbitraries.integers().between(1, 20)).as((page, wave, slice, share) ->
                        new TimeQueryPager.Limits(page, wave, wave + 2, slice, share));
    }

    @Provide
    Arbitrary<FileLayouts.Sharding> shardedBefore() {
        return Arbitraries.integers().between(2, 8).map(shards -> new FileLayouts.Sharding(true, -1, shards, -1, 1));
    }

    @Provide
    Arbitrary<String> where() {
        return Arbitraries.of("", "web", "db");
    }
}
