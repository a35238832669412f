package datalake.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the ingester's CPU goes, from a profile's samples and compilations (scripts/profile-ingest.sh,
 * docs/PERFORMANCE.md "CPU per ingested file"). A sample is the handler's when its thread is one of the
 * ingester's pools ({@code ingester-N}) or runs {@link datalake.ingester.IngesterHandler}; it is counted
 * under the AWS SDK operation it is inside (the outermost {@code Default<Service>Client.<operation>}
 * frame), or, outside every SDK call, under the origin of the code running (ours, Jackson, the JDK). A
 * compilation is counted by compiler (C1 for levels 1 to 3, C2 for 4) and by the origin of its method.
 */
final class ProfileTally {
    static final String OUTSIDE = "outside the SDK: ";
    private static final String HANDLER = "datalake.ingester.IngesterHandler.handleRequest";
    private static final Pattern SDK_CALL =
            Pattern.compile("software\\.amazon\\.awssdk\\.services\\.\\w+\\.Default(\\w+)Client\\.(\\w+)");

    private final Map<String, Long> samples = new TreeMap<>();
    private final Map<String, Long> compiledNanos = new TreeMap<>();
    private long handlerSamples;
    private long compilations;

    /**
     * One execution sample.
     *
     * @param thread the sampled thread's name
     * @param frames its stack, the running method first, each as {@code package.Class.method}
     */
    void sample(String thread, List<String> frames) {
        if (!thread.startsWith("ingester-") && !frames.contains(HANDLER)) {
            return;
        }
        handlerSamples++;
        String operation = null;
        for (String frame : frames) {
            Matcher call = SDK_CALL.matcher(frame);
            if (call.matches()) {
                operation = call.group(1) + " " + call.group(2);
            }
        }
        samples.merge(operation != null ? operation : OUTSIDE + origin(frames.isEmpty() ? "" : frames.get(0)), 1L, Long::sum);
    }

    /**
     * One finished compilation.
     *
     * @param className the compiled method's class, dotted
     * @param level its tier (1 to 3 C1, 4 C2)
     * @param nanos how long it took
     */
    void compilation(String className, int level, long nanos) {
        compiledNanos.merge((level == 4 ? "C2" : "C1") + ", " + origin(className), nanos, Long::sum);
        compilations++;
    }

    long handlerSamples() {
        return handlerSamples;
    }

    /** The handler's samples by SDK operation, or by the origin of the code outside the SDK. */
    Map<String, Long> samples() {
        return samples;
    }

    /** Compilation time in nanoseconds by compiler and origin. */
    Map<String, Long> compiledNanos() {
        return compiledNanos;
    }

    /** The share of the handler's samples inside AWS SDK calls, 0 to 1. */
    double sdkShare() {
        long outside = samples.entrySet().stream().filter(e -> e.getKey().startsWith(OUTSIDE))
                .mapToLong(Map.Entry::getValue).sum();
        return handlerSamples == 0 ? 0 : 1 - (double) outside / handlerSamples;
    }

    /** The tally as text: the handler's samples, then the compilations. */
    String report() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "the handler's samples: %d, %.1f%% inside AWS SDK calls%n",
                handlerSamples, 100 * sdkShare()));
        appendShares(out, samples, handlerSamples, n -> Long.toString(n));
        long compiled = compiledNanos.values().stream().mapToLong(Long::longValue).sum();
        out.append(String.format(Locale.ROOT, "compilations: %d methods, %.1f s of compiler time%n",
                compilations, compiled / 1e9));
        appendShares(out, compiledNanos, compiled,
                nanos -> String.format(Locale.ROOT, "%.2f s", nanos / 1e9));
        return out.toString();
    }

    private static void appendShares(StringBuilder out, Map<String, Long> counts, long total, Function<Long, String> format) {
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> out.append(String.format(Locale.ROOT, "  %5.1f%%  %-40s %s%n",
                        total == 0 ? 0 : 100.0 * e.getValue() / total, e.getKey(), format.apply(e.getValue()))));
    }

    /** Whose code a frame or a class is, by its package. */
    static String origin(String frame) {
        if (frame.startsWith("software.amazon.awssdk.")) {
            return "AWS SDK";
        }
        if (frame.startsWith("datalake.")) {
            return "ours";
        }
        if (frame.startsWith("com.fasterxml.jackson.")) {
            return "Jackson";
        }
        if (frame.startsWith("java.") || frame.startsWith("javax.") || frame.startsWith("jdk.")
                || frame.startsWith("sun.") || frame.startsWith("com.sun.")) {
            return "JDK";
        }
        return "other";
    }
}
