package datalake.query;

import datalake.dynamodb.StoredRecord;
import datalake.records.TimeBuckets;

/**
 * Which records a time query returns. A file matches when its [start, end] intersects the query's
 * [start, end] (both inclusive; an instant file when its start is inside). A matching file has a
 * record in every bucket it touches, so it is returned only from the first bucket that both it and
 * the query cover: exactly once, whatever the page boundaries.
 */
final class Intersection {
    private Intersection() {
    }

    static boolean intersects(StoredRecord file, long start, long end) {
        return file.start() <= end && file.endOrStart() >= start;
    }

    /** The first bucket both the file and a query starting at {@code queryStart} cover. */
    static long firstCommonBucket(StoredRecord file, long queryStart) {
        return Math.max(TimeBuckets.bucketOf(file.start()), TimeBuckets.bucketOf(queryStart));
    }

    /** Whether the query returns this record (of bucket {@code record.bucket()}). */
    static boolean emits(StoredRecord record, FilesQuery.ByTime query) {
        return intersects(record, query.start(), query.end())
                && record.bucket() == firstCommonBucket(record, query.start());
    }
}
