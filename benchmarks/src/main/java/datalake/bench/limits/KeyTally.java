package datalake.bench.limits;

import java.util.SortedMap;

/**
 * What one partition key was asked for and answered, counted by {@link PartitionModel}.
 *
 * @param key             the key
 * @param writes          writes admitted (items: a Put, Update or Delete, or one entry of a BatchWriteItem)
 * @param writeUnits      their write units
 * @param throttledWrites writes this key refused for want of capacity (each refused attempt of a retried write counts)
 * @param reads           reads admitted (a GetItem, a Query, or one key of a BatchGetItem)
 * @param readUnits       their read units
 * @param throttledReads  reads this key refused
 * @param writesBySecond  writes admitted in each second since the model started (seconds without any are absent)
 */
public record KeyTally(PartitionKey key, long writes, double writeUnits, long throttledWrites, long reads,
        double readUnits, long throttledReads, SortedMap<Long, Long> writesBySecond) {

    /** Writes admitted in each second from {@code first} to {@code last} (seconds of the model), zeros included. */
    public long[] writesPerSecond(long first, long last) {
        long[] counts = new long[(int) Math.max(0, last - first + 1)];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = writesBySecond.getOrDefault(first + i, 0L);
        }
        return counts;
    }
}
