package datalake.records;

/**
 * Day buckets: bucket = floor(ms / 86,400,000). A file has one record in every bucket its
 * [start, end] touches, so a file ending exactly at midnight also touches the next day's bucket.
 */
public final class TimeBuckets {
    public static final long DAY_MS = 86_400_000L;
    /** The default maximum number of buckets one file may span ({@code DATALAKE_MAX_BUCKET_SPAN}). */
    public static final int DEFAULT_MAX_SPAN = 30;

    private TimeBuckets() {
    }

    public static long bucketOf(long ms) {
        return Math.floorDiv(ms, DAY_MS);
    }

    /** The first millisecond of a bucket. */
    public static long startOf(long bucket) {
        return Math.multiplyExact(bucket, DAY_MS);
    }

    /** How many buckets [startMs, endMs] touches (at least 1; endMs >= startMs). */
    public static long count(long startMs, long endMs) {
        return bucketOf(endMs) - bucketOf(startMs) + 1;
    }

    /** The buckets [startMs, endMs] touches, in order; {@link UnsupportedTimeRangeException} past maxSpan. */
    public static long[] span(long startMs, long endMs, int maxSpan) {
        if (endMs < startMs) {
            throw new IllegalArgumentException("end must not be before start");
        }
        long count = count(startMs, endMs);
        if (count > maxSpan) {
            throw new UnsupportedTimeRangeException(count, maxSpan);
        }
        long first = bucketOf(startMs);
        long[] buckets = new long[(int) count];
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = first + i;
        }
        return buckets;
    }

    /** The buckets a file spans: [start, end], or just start's bucket for an instant. */
    public static long[] span(Metadata metadata, int maxSpan) {
        return span(metadata.start(), metadata.endOrStart(), maxSpan);
    }
}
