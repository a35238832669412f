package datalake.query;

import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.dynamodb.StoredRecord;
import datalake.records.Metadata;
import datalake.records.ShardMap;
import datalake.records.TimeBuckets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a page of a busy day costs, in Queries and items read, as the API pages it ({@link
 * TimeQueryPager.Limits#API}). The fake table has no item sizes, so items read stand in for read units:
 * DynamoDB charges a Query by the size of what it read, rounded up to 4 KB, so the two agree for Queries
 * of more than a few items and RRU are somewhat higher for the small first reads of a sharded day.
 */
class PageCostTest {
    private static final int WHERES = 40;
    private static final long HOUR = 3_600_000L;
    private final ExecutorService executor = Executors.newFixedThreadPool(8);
    private static final String SHARD_READER = "shard-reader";
    private final RoundCounter shardExecutor = new RoundCounter(16, r -> new Thread(r, SHARD_READER));

    @AfterEach
    void stop() {
        executor.shutdownNow();
        shardExecutor.shutdownNow();
    }

    /**
     * The shard readers' executor, counting rounds: the reads a caller submits before it waits for any of
     * them go out together, so each distinct count of waits seen at a submission is one round trip.
     */
    private static final class RoundCounter extends ThreadPoolExecutor {
        private final AtomicLong waits = new AtomicLong();
        private final Set<Long> rounds = ConcurrentHashMap.newKeySet();

        RoundCounter(int threads, ThreadFactory factory) {
            super(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), factory);
        }

        /** The rounds submitted since the last call. */
        long takeRounds() {
            long n = rounds.size();
            rounds.clear();
            return n;
        }

        @Override
        protected <T> RunnableFuture<T> newTaskFor(Callable<T> task) {
            rounds.add(waits.get());
            return new FutureTask<>(task) {
                @Override
                public T get() throws InterruptedException, ExecutionException {
                    waits.incrementAndGet();
                    return super.get();
                }
            };
        }
    }

    /**
     * What paging through a query cost: Queries and items read per page, and what the pages held; the
     * Queries of each page made alone, each a round trip the page waited for: those not among a sharded
     * day's concurrent reads (the pages here read one day at a time); the round trips it waited for,
     * those and each round of concurrent reads; and the range keys of every item read, returned or not.
     */
    private record Cost(List<Long> queries, List<Long> items, List<StoredRecord> records, List<Long> alone,
            List<Long> rounds, List<String> itemsRead) {
        long maxQueries() {
            return queries.stream().max(Comparator.naturalOrder()).orElse(0L);
        }

        long maxAlone() {
            return alone.stream().max(Comparator.naturalOrder()).orElse(0L);
        }

        long totalItems() {
            return items.stream().mapToLong(Long::longValue).sum();
        }

        List<String> rangeKeys() {
            return records.stream().map(StoredRecord::rangeKey).toList();
        }
    }

    /** {@code perWhere} files of each of 40 WHEREs on one day, their starts spread evenly over the day. */
    private static List<Metadata> day(int perWhere) {
        return day(0, perWhere);
    }

    /** {@code perWhere} files of each of 40 WHEREs on day {@code day} after T0's, spread evenly over it. */
    private static List<Metadata> day(int day, int perWhere) {
        List<Metadata> files = new ArrayList<>();
        int total = perWhere * WHERES;
        for (int w = 0; w < WHERES; w++) {
            for (int i = 0; i < perWhere; i++) {
                long start = T0 + day * DAY + (i * WHERES + w) * (DAY / total);
                String where = String.format("host-%02d", w);
                files.add(TestFiles.file(String.format("f%02d-%02d-%05d", day, w, i), "w", where, start, null));
            }
        }
        return files;
    }

    private static ShardMap sharded(int shards) {
        return shards == 1 ? ShardMap.EMPTY
                : ShardMap.EMPTY.with("w", new ShardMap.Entry(TimeBuckets.bucketOf(T0), shards));
    }

    private Cost pages(List<Metadata> files, int shards, long start, long end) {
        return pages(files, shards, start, end, Integer.MAX_VALUE);
    }

    /** The first {@code most} pages of the query. */
    private Cost pages(List<Metadata> files, int shards, long start, long end, int most) {
        return pages(files, shards, null, start, end, most);
    }

    /** The first {@code most} pages of the query of one WHERE ({@code where}), or of all (null). */
    private Cost pages(List<Metadata> files, int shards, String where, long start, long end, int most) {
        ShardMap map = sharded(shards);
        InMemoryRecordsTable table = new InMemoryRecordsTable().put(TestFiles.records(files, map));
        TimeQueryPager pager = new TimeQueryPager(new BucketReader(table, () -> map, shardExecutor), executor,
                TimeQueryPager.Limits.API);
        FilesQuery.ByTime query = new FilesQuery.ByTime("w", where, start, end);
        AtomicLong alone = new AtomicLong();
        table.onRead(bucket -> {
            if (!Thread.currentThread().getName().equals(SHARD_READER)) {
                alone.incrementAndGet();
            }
        });
        Cost cost = new Cost(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>(),
                new ArrayList<>(), new ArrayList<>());
        Cursor cursor = null;
        do {
            long queries = table.reads();
            long items = table.itemsRead();
            long aloneBefore = alone.get();
            shardExecutor.takeRounds();
            Page page = pager.page(query, cursor);
            cost.queries().add(table.reads() - queries);
            cost.items().add(table.itemsRead() - items);
            cost.alone().add(alone.get() - aloneBefore);
            cost.rounds().add(alone.get() - aloneBefore + shardExecutor.takeRounds());
            cost.records().addAll(page.records());
            cursor = page.next();
        } while (cursor != null && cost.queries().size() < most);
        cost.itemsRead().addAll(table.rangeKeysRead());
        return cost;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4, 16})
    void aPageOfAShardedDayCostsAboutOneQueryAShardAndReadsLittleMoreThanAnUnshardedPage(int shards) {
        // given a day of 4,000 files over 40 WHEREs, sharded into S (1: the plain key)
        List<Metadata> files = day(100);

        // when every page of the day is read, sharded and unsharded
        Cost unsharded = pages(files, 1, T0, T0 + DAY - 1);
        Cost cost = pages(files, shards, T0, T0 + DAY - 1);

        // then the pages are the same, and each costs at most S + 2 Queries and half as many items again
        assertEquals(unsharded.rangeKeys(), cost.rangeKeys(), "the unsharded pages");
        assertTrue(cost.maxQueries() <= shards + 2, "Queries per page " + cost.queries());
        assertTrue(cost.totalItems() <= 1.5 * unsharded.totalItems(),
                "items read " + cost.totalItems() + " against " + unsharded.totalItems() + " unsharded");
        // and every page after the first waits for one round of Queries, as an unsharded page does, one a
        // key: its cursor names the WHERE it goes on in, whose key is read for the whole page at once (the
        // first page cannot know it: its densest key is read again, a second round; S + 2 before, every page)
        long keys = shards == 1 ? 1 : shards + 1;
        assertTrue(cost.rounds().getFirst() <= 2, "rounds " + cost.rounds());
        assertTrue(cost.rounds().stream().skip(1).allMatch(r -> r == 1), "rounds " + cost.rounds());
        assertTrue(cost.queries().stream().skip(1).allMatch(q -> q == keys), "Queries per page " + cost.queries());
    }

    /** Every page at most S + 2 Queries, and all of them a fifth more items than the unsharded pages at most. */
    private static void assertAtMostSPlus2QueriesAndAFifthMoreItems(Cost cost, Cost unsharded, int shards) {
        assertTrue(cost.maxQueries() <= shards + 2, "Queries per page " + cost.queries());
        assertTrue(cost.totalItems() <= 1.25 * unsharded.totalItems(),
                "items read " + cost.totalItems() + " against " + unsharded.totalItems() + " unsharded");
    }

    /** The page read one WHERE's key and the plain key, in one round: 2 Queries (every key: S + 1). */
    private static void assertTwoKeysInOneRound(Cost cost, int page) {
        assertEquals(2, cost.queries().get(page), "page " + page + ", Queries per page " + cost.queries());
        assertEquals(1, cost.rounds().get(page), "page " + page + ", rounds per page " + cost.rounds());
    }

    @ParameterizedTest
    @ValueSource(ints = {4, 16})
    void aPageInsideOneWhereOfAShardedDayReadsThatWheresKeysAlone(int shards) {
        // given a day of 10,000 files, 250 for each of 40 WHEREs, sharded into S
        List<Metadata> files = day(250);

        // when every page of the day is read, sharded and unsharded
        Cost unsharded = pages(files, 1, T0, T0 + DAY - 1);
        Cost cost = pages(files, shards, T0, T0 + DAY - 1);

        // then the pages are the same; a page whose cursor and whose records, the next page's first
        // included, lie in one WHERE reads that WHERE's key and the earlier layout's (the plain key): 2
        // Queries in one round, as many items as unsharded and the plain key's none (S + 1 before); the
        // others at most S + 2, and all together read a fifth more items than unsharded
        assertEquals(unsharded.rangeKeys(), cost.rangeKeys(), "the unsharded pages");
        List<String> keys = cost.rangeKeys();
        int inside = 0;
        for (int page = 1; page < cost.queries().size() - 1; page++) {
            String where = keys.get(100 * page - 1).split(":")[0];
            if (keys.subList(100 * page, 100 * page + 101).stream().allMatch(k -> k.startsWith(where + ":"))) {
                inside++;
                assertTwoKeysInOneRound(cost, page);
                assertEquals(unsharded.items().get(page), cost.items().get(page), "page " + page + ", items");
            }
        }
        assertEquals(40, inside, "pages inside one WHERE");
        assertAtMostSPlus2QueriesAndAFifthMoreItems(cost, unsharded, shards);
    }

    @ParameterizedTest
    @ValueSource(ints = {4, 16})
    void aPageThatEndsWhereItsWhereEndsReadsNoOtherKeyToLearnWhatFollows(int shards) {
        // given a day of 8,000 files, 200 for each of 40 WHEREs, sharded into S: every second page ends
        // exactly where its WHERE ends, its cursor in that WHERE
        List<Metadata> files = day(200);

        // when every page of the day is read, sharded and unsharded
        Cost unsharded = pages(files, 1, T0, T0 + DAY - 1);
        Cost cost = pages(files, shards, T0, T0 + DAY - 1);

        // then the pages are the same, and such a page, when its WHERE's key holds a later WHERE, reads
        // that key and the plain key alone (2 Queries, one round): the key's next record says the day goes
        // on, and which record comes next the page after it reads from every key anyway (S + 1 more Queries
        // before, for the WHERE of one record); that page, which has no WHERE to read ahead, costs at most
        // S + 2. A WHERE its key's last still has the other keys read, to learn whether anything follows.
        assertEquals(unsharded.rangeKeys(), cost.rangeKeys(), "the unsharded pages");
        List<String> keys = cost.rangeKeys();
        Set<String> wheres = new TreeSet<>(keys.stream().map(k -> k.split(":")[0]).toList());
        int ending = 0;
        for (int page = 1; page < cost.queries().size() - 1; page += 2) {
            String where = keys.get(100 * page + 99).split(":")[0];
            int shard = ShardMap.shardOf(where, shards);
            if (wheres.stream().anyMatch(w -> w.compareTo(where) > 0 && ShardMap.shardOf(w, shards) == shard)) {
                ending++;
                assertTwoKeysInOneRound(cost, page);
            }
        }
        assertTrue(ending >= 20, ending + " pages end where a WHERE ends, before a later WHERE of its key");
        assertAtMostSPlus2QueriesAndAFifthMoreItems(cost, unsharded, shards);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4, 16})
    void aThirtyDayPageServedFromItsFirstDayCostsWhatThatDaysPageCosts(int shards) {
        // given a WHAT sharded into S every day: a day of 4,000 files, then 29 days of 1,000
        List<Metadata> files = new ArrayList<>(day(0, 100));
        for (int d = 1; d < 30; d++) {
            files.addAll(day(d, 25));
        }

        // when the first 5 pages of the 30 days are read, sharded and unsharded, and of the first day alone
        Cost unsharded = pages(files, 1, T0, T0 + 30 * DAY - 1, 5);
        Cost cost = pages(files, shards, T0, T0 + 30 * DAY - 1, 5);
        Cost firstDay = pages(files, shards, T0, T0 + DAY - 1, 5);

        // then the pages are the same, and each costs exactly what the page of the day alone does, at most
        // S + 2 Queries (reading every day for its share cost 40, 216 and 594)
        assertEquals(unsharded.rangeKeys(), cost.rangeKeys(), "the unsharded pages");
        assertEquals(500, cost.records().size());
        assertEquals(firstDay.queries(), cost.queries(), "Queries per page, the day alone");
        assertEquals(firstDay.items(), cost.items(), "items per page, the day alone");
        assertTrue(cost.maxQueries() <= shards + 2, "Queries per page " + cost.queries());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4, 16})
    void aPageThatCrossesIntoTheNextBusyDayReadsThatDayAloneAfterIt(int shards) {
        // given three busy days of 4,000 files, sharded into S
        List<Metadata> files = new ArrayList<>();
        for (int d = 0; d < 3; d++) {
            files.addAll(day(d, 100));
        }

        // when every page of a 30-day range over them is read
        Cost unsharded = pages(files, 1, T0, T0 + 30 * DAY - 1);
        Cost cost = pages(files, shards, T0, T0 + 30 * DAY - 1);

        // then every file came in order; a page costs at most two days' pages (S + 2 each), but the last,
        // which reads each of the 27 empty days after the third once, since any could hold a file
        long keys = shards == 1 ? 1 : shards + 1;
        assertEquals(unsharded.rangeKeys(), cost.rangeKeys(), "the unsharded pages");
        assertEquals(12_000, cost.records().size());
        List<Long> butLast = cost.queries().subList(0, cost.queries().size() - 1);
        assertTrue(butLast.stream().allMatch(q -> q <= 2L * (shards + 2)), "Queries per page " + cost.queries());
        assertTrue(cost.queries().getLast() <= (shards + 2) + 27 * keys, "the last page " + cost.queries());
        // and the pages that begin the second and third days (40 pages of 100 a day) read those days alone,
        // in one round: the page before saw the day's first record, so the cursor points at that day
        // rather than after the last record of the day before, which would cost its keys again, for nothing
        for (int page : List.of(40, 80)) {
            assertEquals(keys, cost.queries().get(page), "Queries per page " + cost.queries());
            assertEquals(1, cost.rounds().get(page), "rounds per page " + cost.rounds());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4, 16})
    void anHourOfABusyDayReadsMorePerQueryAsMatchesProveSparse(int shards) {
        // given a day of 10,000 files (250 for each of 40 WHEREs), an hour holding 1/24 of them
        List<Metadata> files = day(250);
        long start = T0 + 9 * HOUR;

        // when the hour is paged through, sharded and unsharded
        Cost unsharded = pages(files, 1, start, start + HOUR - 1);
        Cost cost = pages(files, shards, start, start + HOUR - 1);

        // then every file of the hour came, and a page cost at most 4 Queries a key (3 before the keys the
        // scan reaches next were read ahead of their turn; the day's first page read 101 items a Query, and
        // fewer as the page filled: 80 Queries unsharded, 1,164 at S = 4); a sharded day's keys include
        // the plain one, its layout before the change, empty: one Query a page
        int keys = shards == 1 ? 1 : shards + 1;
        assertEquals(FileLayouts.matching(files, start, start + HOUR - 1, null).size(), cost.records().size());
        assertTrue(cost.maxQueries() <= 4L * keys, "Queries per page " + cost.queries());
        // and it read at most half as many items again as unsharded, and waited for no more Queries made one
        // at a time than the unsharded page did (reading each key only when used up, S = 16 waited for 23)
        assertTrue(cost.totalItems() <= 1.5 * unsharded.totalItems(),
                "items read " + cost.totalItems() + " against " + unsharded.totalItems() + " unsharded");
        assertTrue(cost.maxAlone() <= unsharded.maxAlone(),
                "Queries made alone per page " + cost.alone() + ", unsharded " + unsharded.alone());
    }

    @ParameterizedTest
    @CsvSource({"1, 150, 1", "1, 150, 4", "30, 30, 1", "30, 30, 4"})
    void aWheresPagesReadNoItemOfTheWheresAfterIt(int days, int perWhere, int shards) {
        // given days of 40 WHEREs of the same number of files, sharded into S
        List<Metadata> files = new ArrayList<>();
        for (int d = 0; d < days; d++) {
            files.addAll(day(d, perWhere));
        }

        // when every page of one WHERE is read
        Cost cost = pages(files, shards, "host-05", T0, T0 + days * DAY - 1, Integer.MAX_VALUE);

        // then its files came, and every item a Query read was one of them: a page that goes on from a
        // position reads up to that WHERE's last key, not on into the next WHEREs' (as "> position" did, up
        // to the Query's limit: 202 items for the day's 150 files, and 2,075 for 900 over 30 days, against
        // 151 and 1,185 now)
        assertEquals(days * perWhere, cost.records().size());
        List<String> others = cost.itemsRead().stream().filter(k -> !k.startsWith("host-05:")).toList();
        assertEquals(List.of(), others.subList(0, Math.min(5, others.size())),
                others.size() + " items of other WHEREs read, of " + cost.itemsRead().size());
        // and a day's page reads its records and the next page's first, no more
        if (days == 1) {
            assertEquals(List.of(101L, 50L), cost.items(), "items read per page");
        }
    }
}
