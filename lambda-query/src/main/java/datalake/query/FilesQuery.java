package datalake.query;

import datalake.records.Keys.RangeKey;
import datalake.records.TimeBuckets;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A validated {@code /v0/archive/files/} query: by time range or by work id, for one WHAT, optionally
 * narrowed to one WHERE.
 */
sealed interface FilesQuery {
    String what();

    /** The WHERE, or null for every WHERE. */
    String where();

    /** The range-key prefix {@code <where>:} that selects the WHERE, or null. */
    default String rangePrefix() {
        return where() == null ? null : RangeKey.prefix(where());
    }

    /**
     * A digest of what this query asks, stored in its cursors: a cursor is accepted only by the query
     * that produced it, so editing the URL around a cursor cannot move it into another query.
     */
    String fingerprint();

    /** Files of a WHAT whose [start, end] (or instant start) intersects [start, end], both inclusive. */
    record ByTime(String what, String where, long start, long end) implements FilesQuery {
        public long firstBucket() {
            return TimeBuckets.bucketOf(start);
        }

        public long lastBucket() {
            return TimeBuckets.bucketOf(end);
        }

        @Override
        public String fingerprint() {
            return digest("time", what, where, Long.toString(start), Long.toString(end));
        }
    }

    /** Files of a WHAT with one work id, whatever their time. */
    record ByWorkId(String what, String where, String workId) implements FilesQuery {
        @Override
        public String fingerprint() {
            return digest("work_id", what, where, workId);
        }
    }

    private static String digest(String... parts) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String part : parts) {
                // Length-prefixed, so that no two different queries join into the same text.
                String p = part == null ? "" : part;
                sha.update((p.length() + ":" + p + ";").getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(sha.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
