package datalake.records;

/** A file whose [start, end] spans more day buckets than the configured maximum. */
public final class UnsupportedTimeRangeException extends IllegalArgumentException {
    private final long buckets;
    private final int maxBuckets;

    public UnsupportedTimeRangeException(long buckets, int maxBuckets) {
        super("the file's time range spans " + buckets + " day buckets, more than the maximum of "
                + maxBuckets + "; split it into smaller files");
        this.buckets = buckets;
        this.maxBuckets = maxBuckets;
    }

    public long buckets() {
        return buckets;
    }

    public int maxBuckets() {
        return maxBuckets;
    }
}
