package datalake.query;

import datalake.dynamodb.StoredRecord;
import datalake.records.MetadataRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * {@code /v0/archive/coverage/}: how many files, and how many bytes, touch each hour or day of a
 * range, so that gaps show. Every day bucket of the range is read concurrently, like a time query's;
 * each file is counted once, from the first bucket it shares with the range (as time queries return
 * it), in every bin its [start, end] touches within the range.
 */
final class CoverageReader {
    /** Items one DynamoDB Query reads; a bucket is read to its end. */
    private static final int READ_LIMIT = 1000;

    private final BucketReader buckets;
    private final ExecutorService executor;

    CoverageReader(BucketReader buckets, ExecutorService executor) {
        this.buckets = buckets;
        this.executor = executor;
    }

    /** Files and bytes per bin, bins in time order. */
    @SuppressWarnings("ArrayRecordComponent") // filled by read(), then only read; never compared
    record Bins(CoverageQuery query, long[] files, long[] bytes) implements Consumer<StoredRecord> {
        long start(int bin) {
            return (query.firstBin() + bin) * query.step().millis;
        }

        /** Counts the record if the query emits it from its bucket. */
        @Override
        public void accept(StoredRecord record) {
            if (Intersection.emits(record, query.files())) {
                count(query, record, files, bytes);
            }
        }
    }

    /** @param now the request's time, what {@code now} stands for in start and end */
    String answer(Map<String, String> params, long now) {
        return ResponseJson.coverage(read(CoverageQuery.parse(params, now)));
    }

    Bins read(CoverageQuery query) {
        if (!MetadataRules.isSlug(query.what()) || (query.where() != null && !MetadataRules.isSlug(query.where()))) {
            // No stored file can have such a what or where: every bin is empty.
            return new Bins(query, new long[query.binCount()], new long[query.binCount()]);
        }
        FilesQuery.ByTime files = query.files();
        List<Future<Bins>> reads = new ArrayList<>();
        try {
            for (long bucket = files.firstBucket(); bucket <= files.lastBucket(); bucket++) {
                long b = bucket;
                reads.add(executor.submit(() -> readBucket(query, b)));
            }
            long[] fileCounts = new long[query.binCount()];
            long[] byteCounts = new long[query.binCount()];
            for (Future<Bins> read : reads) {
                Bins bucket = Futures.join(read);
                for (int i = 0; i < fileCounts.length; i++) {
                    fileCounts[i] += bucket.files()[i];
                    byteCounts[i] += bucket.bytes()[i];
                }
            }
            return new Bins(query, fileCounts, byteCounts);
        } finally {
            Futures.cancel(reads);
        }
    }

    /**
     * The bins of the files this bucket emits for the range. Counts need no order, so a sharded day's keys
     * are read each on its own, into arrays of their own, and added up.
     */
    private Bins readBucket(CoverageQuery query, long bucket) {
        long[] fileCounts = new long[query.binCount()];
        long[] byteCounts = new long[query.binCount()];
        List<Bins> keys = buckets.scan(bucket, query.what(), query.where(), READ_LIMIT,
                () -> new Bins(query, new long[query.binCount()], new long[query.binCount()]));
        for (Bins key : keys) {
            for (int i = 0; i < fileCounts.length; i++) {
                fileCounts[i] += key.files()[i];
                byteCounts[i] += key.bytes()[i];
            }
        }
        return new Bins(query, fileCounts, byteCounts);
    }

    /** Adds the file to every bin its [start, end], cut to the range, touches. */
    static void count(CoverageQuery query, StoredRecord record, long[] files, long[] bytes) {
        long from = Math.max(record.start(), query.start());
        long to = Math.min(record.endOrStart(), query.end());
        // A record without a size (the Python datalake's first format) counts as a file of no bytes.
        long size = record.size() == null ? 0 : record.size();
        int first = (int) (Math.floorDiv(from, query.step().millis) - query.firstBin());
        int last = (int) (Math.floorDiv(to, query.step().millis) - query.firstBin());
        for (int bin = first; bin <= last; bin++) {
            files[bin]++;
            bytes[bin] += size;
        }
    }
}
