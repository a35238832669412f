package datalake.tools;

import datalake.records.ShardMap;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which WHATs to shard, and into how many, from the writes their day keys took ({@code scripts/shards.sh
 * suggest}; docs/SCALE.md, "Write sharding"). A partition takes {@value #PARTITION_WRITES} writes a second
 * (a record is one write unit). A WHAT whose busiest second exceeds that is throttled, and is to be
 * sharded into the fewest shards that bring that second to {@value #SHARD_TARGET} a shard or less (half a
 * partition: the WHEREs split unevenly over the shards, and a shard's own busiest second is above an even
 * share). One above {@value #WATCH_SHARE} of a partition is named to watch. The GSI's keys are not sharded.
 *
 * <p>Counts of a period longer than a second (Contributor Insights' minutes) do not show the busiest
 * second: it is taken as the busiest period's average times {@value #BURST_RATIO}, the ratio of the busiest
 * second to the busiest minute's average of scripts/scale_sim.py's top WHAT at 100 million files a day
 * (1,709 / 1,067).
 */
final class ShardSuggestion {
    static final int PARTITION_WRITES = 1000;
    static final int SHARD_TARGET = 500;
    static final double WATCH_SHARE = 0.8;
    static final double BURST_RATIO = 1.6;

    /**
     * A WHAT's busiest second.
     *
     * @param what         the WHAT
     * @param day          the day bucket whose key took it
     * @param perSecond    the writes of its busiest second (estimated when the counts are per longer period)
     * @param periodAverage the busiest period's writes a second (equal to perSecond for counts a second)
     */
    record Peak(String what, long day, double perSecond, double periodAverage) {
        double ofPartition() {
            return perSecond / PARTITION_WRITES;
        }
    }

    /** A WHAT to shard: into {@code shards}, each then taking {@link #perShard()} in its busiest second. */
    record Shard(Peak peak, int shards) {
        double perShard() {
            return peak.perSecond() / shards;
        }

        /** More than {@link ShardMap#MAX_SHARDS} would be needed to bring a shard to the target. */
        boolean capped() {
            return perShard() > SHARD_TARGET;
        }
    }

    /**
     * @param shard the WHATs to shard, busiest first
     * @param watch those over {@value #WATCH_SHARE} of a partition but not over it, busiest first
     * @param whats how many WHATs the counts held
     */
    record Result(List<Shard> shard, List<Peak> watch, int whats) {
    }

    private ShardSuggestion() {
    }

    static Result of(WriteCounts counts) {
        Map<String, Peak> peaks = new TreeMap<>();
        counts.byDayWhat().forEach((dayWhat, periods) -> {
            long busiest = periods.values().stream().mapToLong(Long::longValue).max().orElse(0);
            double average = (double) busiest / counts.periodSeconds();
            double perSecond = counts.periodSeconds() == 1 ? busiest : average * BURST_RATIO;
            Peak peak = new Peak(dayWhat.what(), dayWhat.day(), perSecond, average);
            peaks.merge(dayWhat.what(), peak, (a, b) -> b.perSecond() > a.perSecond() ? b : a);
        });
        List<Peak> busiestFirst = peaks.values().stream()
                .sorted(Comparator.comparingDouble(Peak::perSecond).reversed().thenComparing(Peak::what)).toList();
        List<Shard> shard = new ArrayList<>();
        List<Peak> watch = new ArrayList<>();
        for (Peak peak : busiestFirst) {
            if (peak.perSecond() > PARTITION_WRITES) {
                shard.add(new Shard(peak, shards(peak.perSecond())));
            } else if (peak.ofPartition() > WATCH_SHARE) {
                watch.add(peak);
            }
        }
        return new Result(shard, watch, peaks.size());
    }

    /**
     * What {@code scripts/shards.sh suggest} prints: the WHATs to shard, each with the command that does it
     * from {@code from} on, then those to watch.
     */
    static List<String> report(Result result, int periodSeconds, LocalDate from) {
        List<String> lines = new ArrayList<>();
        if (result.shard().isEmpty()) {
            lines.add("nothing to shard: no WHAT's busiest second is over a partition's " + number(PARTITION_WRITES)
                    + " writes.");
        } else {
            lines.add("shard (busiest second over a partition's " + number(PARTITION_WRITES) + " writes; at most "
                    + number(SHARD_TARGET) + " a shard):");
        }
        for (Shard s : result.shard()) {
            lines.add("  " + s.peak().what() + "  " + peak(s.peak(), periodSeconds) + ": " + s.shards() + " shards, ~"
                    + number(s.perShard()) + "/s a shard" + (s.capped() ? " (" + ShardMap.MAX_SHARDS
                            + " is the most: split the WHAT)" : ""));
            lines.add("    scripts/shards.sh set " + s.peak().what() + " --from " + from + " --shards " + s.shards());
        }
        if (!result.watch().isEmpty()) {
            lines.add("watch (over " + Math.round(WATCH_SHARE * 100) + "% of a partition):");
            result.watch().forEach(p -> lines.add("  " + p.what() + "  " + peak(p, periodSeconds)));
        }
        return lines;
    }

    private static String peak(Peak p, int periodSeconds) {
        String day = LocalDate.ofEpochDay(p.day()).toString();
        String share = Math.round(p.ofPartition() * 100) + "% of a partition";
        return periodSeconds == 1
                ? number(p.perSecond()) + "/s on " + day + " (" + share + ")"
                : "~" + number(p.perSecond()) + "/s on " + day + " (busiest " + periodSeconds + " s at "
                        + number(p.periodAverage()) + "/s x " + BURST_RATIO + "; " + share + ")";
    }

    private static String number(double n) {
        return String.format(Locale.ROOT, "%,d", Math.round(n));
    }

    /** The fewest shards that bring {@code perSecond} to the target a shard, at most {@link ShardMap#MAX_SHARDS}. */
    static int shards(double perSecond) {
        int needed = (int) Math.ceil(perSecond / SHARD_TARGET - 1e-9);
        return Math.max(1, Math.min(ShardMap.MAX_SHARDS, needed));
    }
}
