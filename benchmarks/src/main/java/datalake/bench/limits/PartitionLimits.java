package datalake.bench.limits;

import java.time.Duration;

/**
 * DynamoDB's per-partition throughput ceilings, scaled down by a stated factor so that one machine can
 * exceed them: a partition serves at most 1,000 write units and 3,000 read units a second, a table's
 * partition and a GSI's alike (docs/SCALE.md). The model applies them to each partition key value,
 * which is what the ceiling is about when one key's traffic is what makes a partition hot.
 *
 * <p>Each key may save up {@code burst} of unused capacity (one second by default): an idle key takes
 * up to one second's units at once, a busy one exactly its rate. DynamoDB's 300 seconds of burst
 * capacity belong to a provisioned table's capacity and cannot lift a partition above its hard
 * ceiling, which is what this models.
 *
 * @param factor              what DynamoDB's limits are divided by (1 for AWS's own figures)
 * @param writeUnitsPerSecond one key's write units a second (1 KB each)
 * @param readUnitsPerSecond  one key's read units a second (4 KB strongly consistent, 8 KB eventually)
 * @param burst               how much unused capacity a key keeps
 */
public record PartitionLimits(double factor, double writeUnitsPerSecond, double readUnitsPerSecond, Duration burst) {
    /** AWS's write ceiling of one partition, in write units a second. */
    public static final double PARTITION_WRITE_UNITS = 1000;
    /** AWS's read ceiling of one partition, in read units a second. */
    public static final double PARTITION_READ_UNITS = 3000;
    public static final Duration DEFAULT_BURST = Duration.ofSeconds(1);

    public PartitionLimits {
        if (!(factor > 0) || !(writeUnitsPerSecond > 0) || !(readUnitsPerSecond > 0) || burst.isNegative()) {
            throw new IllegalArgumentException("partition limits need a positive factor and rates, and a burst of at least 0.");
        }
    }

    /** AWS's limits divided by {@code factor} (e.g. 10: 100 write units a second per key). */
    public static PartitionLimits scaledDown(double factor) {
        return new PartitionLimits(factor, PARTITION_WRITE_UNITS / factor, PARTITION_READ_UNITS / factor, DEFAULT_BURST);
    }

    /** No limit: every request is admitted, and counted (the baseline a throttled run is compared with). */
    public static PartitionLimits unlimited() {
        return new PartitionLimits(1, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, DEFAULT_BURST);
    }

    public boolean limited() {
        return Double.isFinite(writeUnitsPerSecond) || Double.isFinite(readUnitsPerSecond);
    }

    @Override
    public String toString() {
        return limited()
                ? String.format(java.util.Locale.ROOT, "%,.0f WCU/s and %,.0f RCU/s per partition key (DynamoDB's / %s, %s ms burst)",
                        writeUnitsPerSecond, readUnitsPerSecond, factor == Math.rint(factor) ? Long.toString((long) factor)
                                : Double.toString(factor), burst.toMillis())
                : "no partition limit";
    }
}
