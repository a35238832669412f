package datalake.query;

import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;
import static datalake.query.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.dynamodb.RecordItems;
import datalake.dynamodb.StoredRecord;
import datalake.records.Metadata;
import datalake.records.Record;
import datalake.records.ShardMap;
import datalake.records.ShardMapSource;
import datalake.records.TimeBuckets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class TimeQueryPagerTest {
    private final ExecutorService executor = Executors.newFixedThreadPool(16);
    private final InMemoryRecordsTable table = new InMemoryRecordsTable();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private TimeQueryPager pager(int pageSize, int wave, int budget, int readLimit) {
        return pager(pageSize, wave, budget, readLimit, 10);
    }

    private TimeQueryPager pager(int pageSize, int wave, int budget, int readLimit, int minShare) {
        return new TimeQueryPager(new BucketReader(table, ShardMapSource.NONE, executor), executor,
                new TimeQueryPager.Limits(pageSize, wave, budget, readLimit, minShare));
    }

    /** Follows next cursors to the end, as the datalake client does, and returns every record of every page. */
    private static List<StoredRecord> all(TimeQueryPager pager, FilesQuery.ByTime query, List<Integer> pageSizes) {
        List<StoredRecord> all = new ArrayList<>();
        Cursor cursor = null;
        do {
            // Through the codec, as a real next URL would carry it.
            Cursor decoded = cursor == null ? null : CursorCodec.decode(query, CursorCodec.encode(query, cursor));
            Page page = pager.page(query, decoded);
            pageSizes.add(page.records().size());
            all.addAll(page.records());
            cursor = page.next();
        } while (cursor != null && pageSizes.size() < 10_000);
        return all;
    }

    /** {@code perDay} instants a second apart on each of {@code days} days, WHAT "w": "d00-000", ... */
    private void putEveryDay(int days, int perDay) {
        List<Metadata> files = new ArrayList<>();
        for (int day = 0; day < days; day++) {
            for (int i = 0; i < perDay; i++) {
                files.add(file(String.format("d%02d-%03d", day, i), "w", "h", T0 + day * DAY + i * 1000L, null));
            }
        }
        table.put(TestFiles.records(files));
    }

    private static List<String> ids(List<StoredRecord> records) {
        return records.stream().map(StoredRecord::id).toList();
    }

    @Test
    void aWhereLongerThanASlugInAnotherWritersTablePagesOnWithoutAdvice() {
        // given records whose WHERE is 300 characters (the Python datalake took any), and a short one's
        pagesOnWithoutAdvice("w".repeat(300));
    }

    @Test
    void aWhereOfFewerCharactersThanASlugButMoreBytesPagesOnWithoutAdvice() {
        // given records whose WHERE is 200 two-byte characters: 400 bytes, over the codec's 256 for advice
        pagesOnWithoutAdvice("\u00e9".repeat(200));
    }

    private void pagesOnWithoutAdvice(String longWhere) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            for (Record record : TestFiles.records(file("long-" + i, "w", "web", T0 + i, null))) {
                Map<String, AttributeValue> item = new HashMap<>(RecordItems.toItem(record));
                item.put(RecordItems.RANGE_KEY, AttributeValue.fromS(longWhere + ":long-" + i));
                items.add(item);
            }
            items.addAll(TestFiles.records(file("short-" + i, "w", "web", T0 + i, null)).stream()
                    .map(RecordItems::toItem).toList());
        }
        table.putItems(items);

        // when the day is paged one record at a time, each cursor through the codec
        List<StoredRecord> got = all(pager(1, 4, 32, 10), new FilesQuery.ByTime("w", null, T0, T0 + DAY - 1),
                new ArrayList<>());

        // then every file came, in order: a cursor names no WHERE it could not carry
        assertEquals(List.of("short-0", "short-1", "short-2", "long-0", "long-1", "long-2"),
                got.stream().map(StoredRecord::id).toList());
    }

    @Test
    void aSparseRangeIsReadInTwoRoundsTheFirstDayThenTheRestConcurrently() throws Exception {
        // given a file a day for ten days, and reads of the days after the first that each wait until all
        // nine are in flight
        putEveryDay(10, 1);
        CountDownLatch allInFlight = new CountDownLatch(9);
        Set<Long> read = ConcurrentHashMap.newKeySet();
        table.onRead(bucket -> {
            read.add(bucket);
            if (bucket > 19723L) {
                allInFlight.countDown();
                try {
                    allInFlight.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        FilesQuery.ByTime query = new FilesQuery.ByTime("w", null, T0, T0 + 10 * DAY - 1);

        // when a page is asked
        long started = System.nanoTime();
        Page page = pager(100, 32, 256, 101).page(query, null);

        // then the first day, sparse, had the other nine read at once (one after another would wait 5 s
        // each), and nothing more: one Query a day
        assertEquals(10, read.size());
        assertTrue(allInFlight.getCount() == 0 && System.nanoTime() - started < TimeUnit.SECONDS.toNanos(4));
        assertEquals(10, page.records().size());
        assertNull(page.next());
        assertEquals(10, table.reads());
    }

    @Test
    void emptyDaysWidenTheNextWaveToAWavesWorthOfQueries() {
        // given a range of 40 days whose only file is on the last one, waves of 32 days at most
        table.put(TestFiles.records(List.of(file("last", "w", "h", T0 + 39 * DAY, null))));
        List<Long> read = Collections.synchronizedList(new ArrayList<>());
        table.onRead(read::add);
        FilesQuery.ByTime query = new FilesQuery.ByTime("w", null, T0, T0 + 40 * DAY - 1);

        // when a page is asked
        Page page = pager(100, 32, 256, 101).page(query, null);

        // then the first day was read alone, then 32 days (a wave of one key each), then the last 7: every
        // day once
        assertEquals(List.of("last"), ids(page.records()));
        assertEquals(40, read.size());
        assertEquals(40, new HashSet<>(read).size());
        assertEquals(19723L, read.get(0));
    }

    @Test
    void everyMatchingFileAppearsExactlyOnceAcrossPages() {
        // given 400 files over 30 buckets: instants, one-day files and files spanning up to six days
        Random random = new Random(7);
        List<Metadata> files = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            long start = T0 + (long) (random.nextDouble() * 30 * DAY);
            Long end = switch (i % 3) {
                case 0 -> null;
                case 1 -> start + (long) (random.nextDouble() * DAY);
                default -> start + (long) (random.nextDouble() * 6 * DAY);
            };
            files.add(file(String.format("f%03d", i), "w", i % 2 == 0 ? "web" : "db", start, end));
        }
        table.put(TestFiles.records(files));
        long qs = T0 + 3 * DAY + 12_345;
        long qe = T0 + 25 * DAY + 999;
        FilesQuery.ByTime query = new FilesQuery.ByTime("w", null, qs, qe);

        // when every page is read, with pages of 7, DynamoDB slices of 5 and first reads of 2 a bucket
        List<Integer> pageSizes = new ArrayList<>();
        List<String> got = ids(all(pager(7, 4, 8, 5, 1), query, pageSizes));

        // then each matching file came once, and nothing else
        Set<String> expected = new HashSet<>();
        files.stream().filter(m -> TestFiles.intersects(m, qs, qe)).forEach(m -> expected.add(m.id()));
        assertEquals(expected.size(), got.size(), "no duplicates");
        assertEquals(expected, new HashSet<>(got));
        assertTrue(pageSizes.stream().allMatch(n -> n <= 7));
    }

    @Test
    void aPageOfDenseBucketsReadsTheFirstBucketAlone() {
        // given 30 day buckets of 300 files each
        putEveryDay(30, 300);
        FilesQuery.ByTime query = new FilesQuery.ByTime("w", null, T0, T0 + 30 * DAY - 1);

        // when the first page of 100 is read as the API reads it
        Page page = new TimeQueryPager(new BucketReader(table, ShardMapSource.NONE, executor), executor,
                TimeQueryPager.Limits.API).page(query, null);

        // then it is the first bucket's first 100 files, from one Query of 101 items: the other 29 buckets
        // were never read (reading each for its share took 40 Queries and 769 items)
        assertEquals(100, page.records().size());
        assertEquals("d00-000", page.records().get(0).id());
        assertEquals("d00-099", page.records().get(99).id());
        assertEquals(101, table.itemsRead());
        assertEquals(1, table.reads());
    }

    @Test
    void sparseBucketsAreReadOnce() {
        // given 30 day buckets of 3 files each
        putEveryDay(30, 3);
        FilesQuery.ByTime query = new FilesQuery.ByTime("w", null, T0, T0 + 30 * DAY - 1);

        Page page = new TimeQueryPager(new BucketReader(table, ShardMapSource.NONE, executor), executor,
                TimeQueryPager.Limits.API).page(query, null);

        // one read a bucket (the first, then the other 29 at once), and nothing follows
        assertEquals(90, page.records().size());
        assertNull(page.next());
        assertEquals(30, table.reads());
    }

    @Test
    void whereNarrowsToOneWhere() {
        table.put(TestFiles.records(List.of(
                file("a", "w", "web", T0 + 1, null),
                file("b", "w", "web2", T0 + 2, null),
                file("c", "w", "we", T0 + 3, null),
                file("d", "w", "web", T0 + DAY + 4, T0 + 2 * DAY))));
        FilesQuery.ByTime query = new FilesQuery.ByTime("w", "web", T0, T0 + 3 * DAY);

        List<String> got = ids(all(pager(1, 2, 4, 1), query, new ArrayList<>()));

        assertEquals(List.of("a", "d"), got);
    }

    @Test
    void theLastPageHasNoNextAndAFullFinalPageIsNotFollowedByAnEmptyOne() {
        // given exactly two pages' worth of files in two buckets
        List<Metadata> files = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            files.add(file("x" + i, "w", "h", T0 + i * DAY / 2, null));
        }
        table.put(TestFiles.records(files));
        FilesQuery.ByTime query = new FilesQuery.ByTime("w", null, T0, T0 + 5 * DAY);
        TimeQueryPager pager = pager(2, 32, 256, 101);

        Page first = pager.page(query, null);
        Page second = pager.page(query, first.next());

        assertEquals(List.of("x0", "x1"), ids(first.records()));
        assertEquals(List.of("x2", "x3"), ids(second.records()));
        assertNull(second.next());
    }

    @Test
    void aShardedDayWhoseOneWhereEndsExactlyAtTheSecondPagesEndHasNoThirdPage() {
        // given 200 files of one WHERE on a day of a WHAT sharded into 4: the second page's cursor lies in
        // that WHERE, so its reader reads that WHERE's key alone, and the WHERE ends with the page
        ShardMap map = ShardMap.EMPTY.with("w", new ShardMap.Entry(TimeBuckets.bucketOf(T0), 4));
        List<Metadata> files = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            files.add(file(String.format("a%03d", i), "w", "host-a", T0 + i * 1000L, null));
        }
        table.put(TestFiles.records(files, map));
        TimeQueryPager pager = new TimeQueryPager(new BucketReader(table, () -> map, executor), executor,
                TimeQueryPager.Limits.API);
        FilesQuery.ByTime query = new FilesQuery.ByTime("w", null, T0, T0 + DAY - 1);

        // when the day is paged
        Page first = pager.page(query, null);
        Page second = pager.page(query, CursorCodec.decode(query, CursorCodec.encode(query, first.next())));

        // then the second page is the last: nothing follows the WHERE in any key, so it says so, rather than
        // end on a cursor that leads to an empty page
        assertEquals(100, first.records().size());
        assertEquals(100, second.records().size());
        assertEquals("a199", second.records().getLast().id());
        assertNull(second.next());
    }

    @Test
    void aLongSparseRangeIsWalkedInBoundedSteps() {
        // given one file at the end of a 100-day range, and a budget of 10 buckets a page
        table.put(TestFiles.records(List.of(file("last", "w", "h", T0 + 99 * DAY, null))));
        FilesQuery.ByTime query = new FilesQuery.ByTime("w", null, T0, T0 + 99 * DAY + 1);
        List<Integer> pageSizes = new ArrayList<>();

        List<String> got = ids(all(pager(100, 5, 10, 101), query, pageSizes));

        assertEquals(List.of("last"), got);
        assertEquals(10, pageSizes.size(), "100 buckets, 10 a page");
    }

    @Test
    void anUnalignedRangeIncludesBothPartialBuckets() {
        table.put(TestFiles.records(List.of(
                file("before", "w", "h", T0 + DAY - 10, T0 + DAY - 5L),
                file("first", "w", "h", T0 + DAY + 100, null),
                file("spanning-in", "w", "h", T0 + DAY - 10, T0 + DAY + 50L),
                file("last", "w", "h", T0 + 3 * DAY + 500, T0 + 4 * DAY),
                file("after", "w", "h", T0 + 3 * DAY + 1001, null))));
        FilesQuery.ByTime query = new FilesQuery.ByTime("w", null, T0 + DAY + 1, T0 + 3 * DAY + 1000);

        Set<String> got = new HashSet<>(ids(all(pager(100, 32, 256, 101), query, new ArrayList<>())));

        assertEquals(Set.of("first", "spanning-in", "last"), got);
    }
}
