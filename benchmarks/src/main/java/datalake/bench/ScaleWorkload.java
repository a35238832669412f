package datalake.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The uploads scripts/scale_sim.py emits for the scale benchmark ({@code --emit-files}): the busiest hour
 * of docs/SCALE.md's model, scaled down, one file a line ({@code offset_ms,what,where,work_id}). Each file
 * becomes an object "f&lt;n&gt;/data" whose metadata starts on one day, at its arrival's time of day.
 *
 * @param files   the files, in order of arrival
 * @param seconds the seconds the uploads span
 */
record ScaleWorkload(List<File> files, int seconds) {
    /** The WHAT with the largest share (Zipf's first). */
    static final String TOP_WHAT = "what01";

    static ScaleWorkload read(Path csv) {
        List<File> files = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(csv)) {
                if (line.isBlank()) {
                    continue;
                }
                String[] f = line.split(",", -1);
                files.add(new File(files.size(), Long.parseLong(f[0]), f[1], f[2],
                        f[3].isEmpty() ? Optional.empty() : Optional.of(f[3])));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the workload " + csv, e);
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException("the workload " + csv + " holds no file.");
        }
        return new ScaleWorkload(List.copyOf(files), (int) (files.get(files.size() - 1).offsetMillis() / 1000 + 1));
    }

    /** The uploads of the first {@code seconds} only (a warm-up). */
    ScaleWorkload first(int seconds) {
        return new ScaleWorkload(files.stream().filter(f -> f.offsetMillis() < seconds * 1000L).toList(),
                Math.min(seconds, this.seconds));
    }

    /** The top WHAT's uploads in each second: what its day's key is offered. */
    long[] topWhatPerSecond() {
        long[] counts = new long[seconds];
        files.stream().filter(f -> f.what().equals(TOP_WHAT)).forEach(f -> counts[(int) (f.offsetMillis() / 1000)]++);
        return counts;
    }

    /** The file named "f&lt;n&gt;" (an object key's first part). */
    File named(String name) {
        return files.get(Integer.parseInt(name.substring(1)));
    }

    static double[] sorted(long[] values) {
        double[] sorted = Arrays.stream(values).asDoubleStream().toArray();
        Arrays.sort(sorted);
        return sorted;
    }

    /**
     * One upload.
     *
     * @param n            its number, in order of arrival
     * @param offsetMillis when it arrives, from the start of the run
     */
    record File(int n, long offsetMillis, String what, String where, Optional<String> workId) {
        String name() {
            return "f" + n;
        }

        String key() {
            return name() + "/data";
        }

        /** Its datalake metadata: it starts on {@code dayStartMillis}'s day, at its arrival's time of day. */
        String metadata(long dayStartMillis) {
            return String.format(Locale.ROOT, "{\"version\":0,\"start\":%d,\"end\":null,\"where\":\"%s\",\"what\":\"%s\","
                    + "\"id\":\"%s\",\"hash\":\"0123456789abcdef0123456789abcdef\",\"work_id\":%s,\"path\":\"/%s/%s\"}",
                    dayStartMillis + offsetMillis, where, what, name(), workId.map(w -> "\"" + w + "\"").orElse("null"),
                    what, name());
        }

        /** The S3 notification of its upload, as the queue carries it (a raw S3 event). */
        String notification(String bucket) {
            return "{\"Records\":[{\"eventVersion\":\"2.1\",\"eventSource\":\"aws:s3\",\"awsRegion\":\"us-east-1\","
                    + "\"eventTime\":\"2024-01-01T00:00:00.000Z\",\"eventName\":\"ObjectCreated:Put\",\"s3\":{\"s3SchemaVersion\":\"1.0\","
                    + "\"bucket\":{\"name\":\"" + bucket + "\",\"arn\":\"arn:aws:s3:::" + bucket + "\"},"
                    + "\"object\":{\"key\":\"" + key() + "\",\"size\":1024,\"sequencer\":\"00" + Long.toHexString(1_000_000L + n)
                    + "\"}}}]}";
        }
    }
}
