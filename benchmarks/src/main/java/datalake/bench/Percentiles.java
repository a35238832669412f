package datalake.bench;

import java.util.Arrays;
import java.util.Collection;

/** The median, the 99th percentile and the largest of some samples (NaN for none). */
record Percentiles(double p50, double p99, double max) {
    static Percentiles of(Collection<Double> samples) {
        return of(samples.stream().mapToDouble(Double::doubleValue).sorted().toArray());
    }

    /** Of samples already sorted. */
    static Percentiles of(double[] sorted) {
        if (sorted.length == 0) {
            return new Percentiles(Double.NaN, Double.NaN, Double.NaN);
        }
        double[] copy = Arrays.copyOf(sorted, sorted.length);
        Arrays.sort(copy);
        return new Percentiles(BenchStats.percentile(copy, 0.5), BenchStats.percentile(copy, 0.99), copy[copy.length - 1]);
    }
}
