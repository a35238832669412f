package datalake.bench;

import java.util.Arrays;
import java.util.Locale;

/** Medians and percentiles of samples, and the JSON number format scripts/bench.sh reads. */
final class BenchStats {
    private BenchStats() {
    }

    public static double percentile(double[] samples, double p) {
        double[] sorted = samples.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.min(sorted.length - 1, Math.round(p * (sorted.length - 1)))];
    }

    public static double median(double[] samples) {
        double[] sorted = samples.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    public static double min(double[] samples) {
        return Arrays.stream(samples).min().orElse(Double.NaN);
    }

    public static double max(double[] samples) {
        return Arrays.stream(samples).max().orElse(Double.NaN);
    }

    public static String number(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
