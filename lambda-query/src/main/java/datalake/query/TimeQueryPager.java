package datalake.query;

import datalake.records.Record;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Pages of a time query. The day buckets of [start, end] are read concurrently, a wave of buckets at
 * a time, and merged in bucket order, each bucket in range-key order; a page ends after
 * {@code pageSize} records, or when {@code maxBucketsPerPage} buckets were read (very long, sparse
 * ranges then take several short pages instead of one slow request).
 *
 * <p>Each bucket read stops at {@code pageSize + 1} returned records: enough to fill a page and to know
 * whether anything follows, so {@code next} is null exactly on the last page (unless the page ended
 * at the bucket budget).
 */
final class TimeQueryPager {
    private final RecordsTable table;
    private final ExecutorService executor;
    private final Limits limits;

    /**
     * @param pageSize          records per page (100 in the API)
     * @param waveSize          buckets read concurrently before merging (a 30-day query is one wave)
     * @param maxBucketsPerPage buckets one request may read
     * @param readLimit         records per DynamoDB Query
     */
    record Limits(int pageSize, int waveSize, int maxBucketsPerPage, int readLimit) {
        static final Limits API = new Limits(100, 32, 256, 101);

        Limits {
            if (pageSize < 1 || waveSize < 1 || maxBucketsPerPage < waveSize || readLimit < 1) {
                throw new IllegalArgumentException("page limits must be positive, and the budget at least one wave");
            }
        }
    }

    TimeQueryPager(RecordsTable table, ExecutorService executor, Limits limits) {
        this.table = table;
        this.executor = executor;
        this.limits = limits;
    }

    Page page(FilesQuery.ByTime query, Cursor cursor) {
        long from = cursor == null ? query.firstBucket() : cursor.bucket();
        String after = cursor == null ? null : cursor.after();
        long budgetEnd = Math.min(query.lastBucket(), from + limits.maxBucketsPerPage() - 1);
        List<Record> page = new ArrayList<>(limits.pageSize());
        long next = from;
        while (next <= budgetEnd) {
            long waveEnd = Math.min(budgetEnd, next + limits.waveSize() - 1);
            List<Future<List<Record>>> wave = startWave(query, next, waveEnd, from, after);
            try {
                for (Future<List<Record>> bucketRead : wave) {
                    for (Record record : Futures.join(bucketRead)) {
                        if (page.size() == limits.pageSize()) {
                            Record last = page.get(page.size() - 1);
                            return new Page(page, new Cursor(last.bucket(), last.rangeKey().toString()));
                        }
                        page.add(record);
                    }
                }
            } finally {
                Futures.cancel(wave);
            }
            next = waveEnd + 1;
        }
        // Every bucket up to budgetEnd was read and returned; continue after it, if the query goes on.
        Cursor more = budgetEnd < query.lastBucket() ? new Cursor(budgetEnd + 1, null) : null;
        return new Page(page, more);
    }

    private List<Future<List<Record>>> startWave(FilesQuery.ByTime query, long first, long last, long from,
            String after) {
        List<Future<List<Record>>> wave = new ArrayList<>((int) (last - first + 1));
        if (first == last) {
            // One bucket gains nothing from another thread.
            wave.add(java.util.concurrent.CompletableFuture.completedFuture(
                    readBucket(query, first, first == from ? after : null)));
            return wave;
        }
        for (long bucket = first; bucket <= last; bucket++) {
            long b = bucket;
            String start = b == from ? after : null;
            wave.add(executor.submit(() -> readBucket(query, b, start)));
        }
        return wave;
    }

    /** The bucket's records that the query returns, after {@code after}, at most pageSize + 1 of them. */
    List<Record> readBucket(FilesQuery.ByTime query, long bucket, String after) {
        List<Record> found = new ArrayList<>();
        String position = after;
        do {
            RecordsTable.Slice slice = table.queryBucket(bucket, query.what(), query.rangePrefix(), position,
                    limits.readLimit());
            for (Record record : slice.records()) {
                if (Intersection.emits(record, query)) {
                    found.add(record);
                    if (found.size() > limits.pageSize()) {
                        return found;
                    }
                }
            }
            position = slice.lastKey();
        } while (position != null);
        return found;
    }
}
