package datalake.query;

import datalake.dynamodb.StoredRecord;
import datalake.records.TimeBuckets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;

/**
 * Pages of a time query. The day buckets of [start, end] are read by need, a wave of buckets at a time
 * (each wave's buckets concurrently), and merged in bucket order, each bucket in range-key order; a page
 * ends after {@code pageSize} records, or when {@code maxBucketsPerPage} buckets were read (very long,
 * sparse ranges then take several short pages instead of one slow request).
 *
 * <p>A page needs {@code pageSize + 1} records: enough to fill it and to know whether anything follows,
 * so {@code next} is null exactly on the last page (unless the page ended at the bucket budget); the
 * extra record, the next page's first, gives the cursor its WHERE, and its day when that is a later one.
 * A page that ends where its cursor's WHERE ends, that WHERE's key read alone, does without it when that
 * key holds a later record: the day surely goes on, and which record comes next would cost a Query of
 * every other key, which the next page, starting a WHERE, reads anyway. The first wave is the first
 * bucket alone: a busy day fills the page, and the days after it would cost a Query each, a sharded day's
 * S + 1. A wave that leaves the page short was read to its end, so the next one is sized
 * by what the whole days read gave: as many days again as the records still wanted take at that density,
 * half as many more; after days that gave nothing, as many days as a wave's worth of Queries reads
 * ({@code waveSize} keys, or four times the last wave's). A sparse range (a few files a day) thus takes two
 * rounds, an empty one a few. A wave reads its records in at most two concurrent rounds: first every
 * bucket's share of the page (at least {@code minShare} records), then, for the buckets that had more than
 * their share, as many more as the page could still take from each of them given the records found in
 * the buckets before it. The second round goes on with the first one's {@link DayReader}, so a sharded
 * day's keys are read forward, never again from the page's position.
 */
final class TimeQueryPager {
    private final BucketReader buckets;
    private final ExecutorService executor;
    private final Limits limits;

    /**
     * @param pageSize          records per page (100 in the API)
     * @param waveSize          the most buckets read concurrently before merging, and the Queries a wave
     *                          may spend on days not yet known to hold anything
     * @param maxBucketsPerPage buckets one request may read
     * @param readLimit         the most items one Query asks for: reads grow up to it as matches prove sparse
     * @param minShare          the fewest items a bucket's read asks for
     */
    record Limits(int pageSize, int waveSize, int maxBucketsPerPage, int readLimit, int minShare) {
        /**
         * A Query stops at 1 MB whatever its limit, and 2,000 items of the largest usual size (526 bytes,
         * docs/COSTS.md) are about that: a sparse read asks for no more than DynamoDB can give.
         */
        static final Limits API = new Limits(100, 32, 256, 2_000, 10);

        Limits {
            if (pageSize < 1 || waveSize < 1 || maxBucketsPerPage < waveSize || readLimit < 1 || minShare < 1) {
                throw new IllegalArgumentException("page limits must be positive, and the budget at least one wave");
            }
        }
    }

    /**
     * What was read of one bucket: the records the query returns, in order, and the day read on from the
     * last of them (its reads so far kept, for a second round); {@code follows} when the read stopped short
     * of the page's extra record knowing only that the day holds one ({@link DayReader#followsPastBlock}).
     */
    record BucketRead(List<StoredRecord> records, DayReader rest, boolean follows) {
        BucketRead then(BucketRead more) {
            List<StoredRecord> all = new ArrayList<>(records.size() + more.records.size());
            all.addAll(records);
            all.addAll(more.records);
            return new BucketRead(all, more.rest, more.follows);
        }
    }

    TimeQueryPager(BucketReader buckets, ExecutorService executor, Limits limits) {
        this.buckets = buckets;
        this.executor = executor;
        this.limits = limits;
    }

    Page page(FilesQuery.ByTime query, Cursor cursor) {
        long from = cursor == null ? query.firstBucket() : cursor.bucket();
        String after = cursor == null ? null : cursor.after();
        String nextWhere = cursor == null ? null : cursor.nextWhere();
        long budgetEnd = Math.min(query.lastBucket(), from + limits.maxBucketsPerPage() - 1);
        List<StoredRecord> page = new ArrayList<>(limits.pageSize());
        Density density = new Density();
        long next = from;
        long waveEnd = from;
        while (next <= budgetEnd) {
            List<BucketRead> reads = readWave(query, next, waveEnd, next == from ? after : null,
                    next == from ? nextWhere : null, page.size());
            for (BucketRead read : reads) {
                for (StoredRecord record : read.records()) {
                    if (page.size() == limits.pageSize()) {
                        return new Page(page, cursor(query, page.getLast(), record));
                    }
                    page.add(record);
                }
                if (read.follows() && page.size() == limits.pageSize()) {
                    return new Page(page, cursor(query, page.getLast(), null));
                }
            }
            // The page is short, so every day of the wave was read to its end: count what each gave, but
            // the cursor's day, read from the middle.
            for (int i = 0; i < reads.size(); i++) {
                if (next + i != from || after == null) {
                    density.add(reads.get(i).records().size());
                }
            }
            long lastFirst = next;
            next = waveEnd + 1;
            waveEnd = Math.min(budgetEnd, next + nextWave(query, lastFirst, next, density,
                    limits.pageSize() + 1 - page.size()) - 1);
        }
        // Every bucket up to budgetEnd was read and returned; continue after it, if the query goes on.
        Cursor more = budgetEnd < query.lastBucket() ? new Cursor(budgetEnd + 1, null) : null;
        return new Page(page, more);
    }

    /**
     * Where the page after {@code last} starts, {@code next} being its first record, or null when the day
     * is only known to go on after {@code last} (which record is next, the next page reads): after {@code last}
     * in its day, or at the beginning of {@code next}'s day when that is a later one (what is left of
     * {@code last}'s day and the days between hold nothing for the query, and reading them again would cost
     * a Query a key); with {@code next}'s WHERE, so that the page reads a sharded day's key that holds it
     * for a whole page at once (a query with a WHERE reads one key a day, and needs no advice; a WHERE
     * longer than a slug in bytes, in a table another writer filled, is left out, so that any cursor stays
     * short: {@link CursorCodec#carries}).
     */
    private static Cursor cursor(FilesQuery.ByTime query, StoredRecord last, StoredRecord next) {
        if (next == null) {
            return new Cursor(last.bucket(), last.rangeKey());
        }
        String nextWhere = query.where() == null && CursorCodec.carries(next.where()) ? next.where() : null;
        return next.bucket() == last.bucket() ? new Cursor(last.bucket(), last.rangeKey(), nextWhere)
                : new Cursor(next.bucket(), null, nextWhere);
    }

    /** The whole days read so far and the records they gave the page. */
    private static final class Density {
        int days;
        long records;

        void add(int dayRecords) {
            days++;
            records += dayRecords;
        }
    }

    /**
     * How many days the next wave reads, from {@code first} on: those the {@code wanted} records take at
     * the density seen, half as many more; one after the cursor's day alone (a busy day is followed by
     * another); after days that gave nothing, as many as {@code waveSize} keys, or four times the keys of
     * the last wave (the days {@code lastFirst} up to {@code first}), take, so that empty days read only
     * what an unsharded wave would, while a range of them still takes few rounds. At least one day, at
     * most a wave.
     */
    private int nextWave(FilesQuery.ByTime query, long lastFirst, long first, Density density, int wanted) {
        if (density.records > 0) {
            double days = 1.5 * wanted * density.days / density.records;
            return (int) Math.max(1, Math.min(limits.waveSize(), Math.ceil(days)));
        }
        if (density.days == 0) {
            return 1;
        }
        long spend = Math.max(limits.waveSize(), 4L * keys(query, lastFirst, first - 1));
        int days = 0;
        long keys = 0;
        while (days < limits.waveSize()) {
            keys += buckets.keys(first + days, query.what(), query.where());
            if (days > 0 && keys > spend) {
                break;
            }
            days++;
        }
        return days;
    }

    /** The keys (Queries at least) of the days first..last. */
    private int keys(FilesQuery.ByTime query, long first, long last) {
        int keys = 0;
        for (long bucket = first; bucket <= last; bucket++) {
            keys += buckets.keys(bucket, query.what(), query.where());
        }
        return keys;
    }

    /**
     * The buckets first..last, each read as far as this page can need it.
     *
     * @param after     the position in the first bucket, or null
     * @param nextWhere the WHERE the first bucket's next record is known to have ({@link Cursor}), or null
     * @param onPage    records the page holds already
     */
    private List<BucketRead> readWave(FilesQuery.ByTime query, long first, long last, String after,
            String nextWhere, int onPage) {
        int wanted = limits.pageSize() + 1 - onPage;
        int buckets = (int) (last - first + 1);
        int share = Math.min(wanted, Math.max(limits.minShare(), Math.ceilDiv(wanted, buckets)));
        List<Callable<BucketRead>> firstRound = new ArrayList<>(buckets);
        for (long bucket = first; bucket <= last; bucket++) {
            // A day the query's range covers gives the page every record (but those of files it gave before).
            boolean dense = query.start() <= TimeBuckets.startOf(bucket)
                    && query.end() >= TimeBuckets.startOf(bucket + 1) - 1;
            DayReader day = this.buckets.open(bucket, query.what(), query.where(), bucket == first ? after : null,
                    bucket == first ? nextWhere : null, dense, limits.readLimit());
            // the first bucket's share, when it is all the page wants, ends in the page's extra record
            boolean extra = bucket == first && share == wanted;
            firstRound.add(() -> readBucket(query, day, share, 0, extra));
        }
        List<BucketRead> reads = new ArrayList<>(Futures.all(executor, firstRound));

        // Buckets with more than their share, as far as the records before them leave room on the page.
        List<Integer> readOn = new ArrayList<>();
        List<Callable<BucketRead>> secondRound = new ArrayList<>();
        int before = 0;
        for (int i = 0; i < reads.size() && before < wanted; i++) {
            BucketRead read = reads.get(i);
            int room = wanted - before - read.records().size();
            if (room > 0 && read.rest().more()) {
                readOn.add(i);
                secondRound.add(() -> readBucket(query, read.rest(), room, read.records().size(), true));
            }
            before += read.records().size();
        }
        List<BucketRead> more = Futures.all(executor, secondRound);
        for (int j = 0; j < readOn.size(); j++) {
            int i = readOn.get(j);
            reads.set(i, reads.get(i).then(more.get(j)));
        }
        return reads;
    }

    /**
     * At most {@code want} of the day's records that the query returns, read on from where {@code day}
     * stands. A Query asks for the items that the records still wanted take at the match rate seen so far
     * (a narrow window of a busy day matches few), never fewer than {@code minShare}: records that the
     * query skips must not turn into one call each.
     *
     * @param matched the records this day gave the page before, which count in its match rate
     * @param extra   the last record wanted is the page's extra one, which only says what follows the page:
     *                when the day is known to hold one without reading the keys that would tell which
     *                ({@link DayReader#followsPastBlock}), the read stops before it
     */
    private BucketRead readBucket(FilesQuery.ByTime query, DayReader day, int want, int matched, boolean extra) {
        List<StoredRecord> found = new ArrayList<>(Math.min(want, limits.pageSize() + 1));
        while (found.size() < want) {
            if (extra && found.size() == want - 1 && day.followsPastBlock()) {
                return new BucketRead(found, day, true);
            }
            int need = want - found.size();
            StoredRecord record = day.next(ahead(need, day.taken(), matched + found.size()), need);
            if (record == null) {
                break;
            }
            if (Intersection.emits(record, query)) {
                found.add(record);
            }
        }
        return new BucketRead(found, day, false);
    }

    /**
     * The items that {@code need} more matches take at the rate seen in {@code read} items, and as many
     * again as that rate expects misses: matches come in runs (a WHERE's files of the hour lie together),
     * and a read that falls short costs a round trip. One match more than seen is counted, so that a run
     * of misses grows the read without dividing by zero; dense reads (every item a match) ask for {@code need}.
     */
    private int ahead(int need, long read, long matched) {
        double rate = read == 0 ? 1 : Math.min(1, (matched + 1.0) / (read + 1.0));
        double expected = need / rate;
        return (int) Math.min(limits.readLimit(), Math.max(limits.minShare(), Math.ceil(2 * expected - need)));
    }
}
