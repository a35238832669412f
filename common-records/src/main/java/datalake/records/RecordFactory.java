package datalake.records;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns a file (its metadata and the facts of its stored object) into its records: one per day
 * bucket its time range touches, each under the key the shard map in force gives its day. Configured
 * once from {@code DATALAKE_MAX_BUCKET_SPAN}, {@code DATALAKE_RETENTION_DAYS} and the shard map's source.
 */
public final class RecordFactory {
    private static final long DAY_SECONDS = 86_400L;
    private final int maxBucketSpan;
    private final Integer retentionDays;
    private final ShardMapSource shards;

    /**
     * @param maxBucketSpan the most buckets one file may span (default {@link TimeBuckets#DEFAULT_MAX_SPAN})
     * @param retentionDays days a record is kept after its end (or start), or null to keep it forever
     * @param shards        the shard map in force (read once per file)
     */
    public RecordFactory(int maxBucketSpan, Integer retentionDays, ShardMapSource shards) {
        if (maxBucketSpan < 1) {
            throw new IllegalArgumentException("the maximum bucket span must be at least 1");
        }
        if (retentionDays != null && retentionDays < 1) {
            throw new IllegalArgumentException("the retention must be at least 1 day");
        }
        this.maxBucketSpan = maxBucketSpan;
        this.retentionDays = retentionDays;
        this.shards = shards;
    }

    /** No WHAT sharded. */
    public RecordFactory(int maxBucketSpan, Integer retentionDays) {
        this(maxBucketSpan, retentionDays, ShardMapSource.NONE);
    }

    public RecordFactory() {
        this(TimeBuckets.DEFAULT_MAX_SPAN, null);
    }

    /** The shard map in force, as the records are keyed by it. */
    public ShardMap shardMap() {
        return shards.current();
    }

    public int maxBucketSpan() {
        return maxBucketSpan;
    }

    /** The records of one file; {@link UnsupportedTimeRangeException} when it spans too many buckets. */
    public List<Record> records(Metadata metadata, String url, long createTime, long size) {
        return records(metadata, url, createTime, size, maxBucketSpan);
    }

    /**
     * The records of a file indexed before, as {@link #records} makes them but whatever the span limit is
     * now: its writer took it, and a limit lowered since must not turn its removal, its repair or the
     * latest entry it leaves into a failure.
     */
    public List<Record> rebuilt(Metadata metadata, String url, long createTime, long size) {
        return records(metadata, url, createTime, size, Integer.MAX_VALUE);
    }

    private List<Record> records(Metadata metadata, String url, long createTime, long size, int maxSpan) {
        long[] buckets = TimeBuckets.span(metadata, maxSpan);
        Long expiresAt = retentionDays == null ? null
                : Math.floorDiv(metadata.endOrStart(), 1000L) + retentionDays * DAY_SECONDS;
        ShardMap map = shards.current();
        List<Record> records = new ArrayList<>(buckets.length);
        for (long bucket : buckets) {
            int shard = map.timeIndexKey(bucket, metadata.what(), metadata.where()).shard();
            records.add(new Record(bucket, shard, url, createTime, size, metadata, expiresAt));
        }
        return records;
    }

    /** {@code s3://<bucket>/<key>} for a decoded object key. */
    public static String s3Url(String bucket, String key) {
        return "s3://" + bucket + "/" + key;
    }
}
