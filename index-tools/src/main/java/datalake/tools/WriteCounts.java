package datalake.tools;

import datalake.records.Keys.TimeIndexKey;
import datalake.records.MetadataRules;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Writes a records table's day keys took, per period of a measurement (a second from the partition
 * model or scripts/scale_sim.py, a minute from Contributor Insights): what {@link ShardSuggestion} reads.
 * Kept per day and WHAT, a sharded day's keys ({@code <day>:<what>#<s>}) added together, since a WHAT's
 * shard count answers for all its writes; keys that are not day keys (the per-object items, the shard
 * map) are left out.
 */
final class WriteCounts {
    /** A WHAT on one day. */
    record DayWhat(long day, String what) {
    }

    private final int periodSeconds;
    private final Map<DayWhat, Map<Long, Long>> counts = new TreeMap<>(
            Comparator.comparing(DayWhat::what).thenComparingLong(DayWhat::day));

    /** @param periodSeconds how long one period is: 1 for writes a second, 60 for a minute's */
    WriteCounts(int periodSeconds) {
        if (periodSeconds < 1) {
            throw new IllegalArgumentException("a period is at least a second.");
        }
        this.periodSeconds = periodSeconds;
    }

    int periodSeconds() {
        return periodSeconds;
    }

    /**
     * Adds {@code writes} a key took in the period starting at {@code period} (any counter of periods: seconds
     * since a run began, or epoch minutes); false, and nothing added, when the key is no day key.
     */
    boolean add(String key, long period, long writes) {
        Optional<DayWhat> dayWhat = dayWhat(key);
        dayWhat.ifPresent(d -> counts.computeIfAbsent(d, k -> new TreeMap<>()).merge(period, writes, Long::sum));
        return dayWhat.isPresent();
    }

    /** Per day and WHAT, the writes of each period (periods without any are absent). */
    Map<DayWhat, Map<Long, Long>> byDayWhat() {
        return counts;
    }

    static Optional<DayWhat> dayWhat(String key) {
        try {
            TimeIndexKey parsed = TimeIndexKey.parse(key);
            return MetadataRules.isSlug(parsed.what()) ? Optional.of(new DayWhat(parsed.bucket(), parsed.what()))
                    : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
