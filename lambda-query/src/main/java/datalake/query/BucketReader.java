package datalake.query;

import datalake.dynamodb.StoredRecord;
import datalake.records.Keys.RangeKey;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.ShardMap;
import datalake.records.ShardMapSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;

/**
 * One day bucket of a WHAT, read in range-key order whatever its layout (docs/DESIGN.md, "Records and
 * keys"): the plain {@code <day>:<what>}; on a day the shard map shards the WHAT into S, with a WHERE the
 * one key of that WHERE's shard, and without one the S keys of the day, read concurrently from the same
 * position and merged.
 *
 * <p>A merged slice keeps the records up to the smallest last key of the shards that have more: every
 * record up to it has been read from every shard, so the slice is exactly what the unsharded day would
 * give next, and its last key is a position that holds in every shard (each range key lives in one
 * shard: its WHERE's). So pages and cursors stay as they are for an unsharded day, whatever S is.
 *
 * @param executor runs the shard reads of a day; never the executor whose tasks call this reader
 */
record BucketReader(RecordsTable table, ShardMapSource shards, ExecutorService executor) {
    /**
     * Some of the day's records of the WHAT (at {@code where}, unless null), in range-key order, after
     * {@code after}; about {@code limit} at most.
     */
    RecordsTable.Slice read(long bucket, String what, String where, String after, int limit) {
        int count = shards.current().shards(what, bucket);
        String prefix = where == null ? null : RangeKey.prefix(where);
        if (count == 1) {
            return table.queryKey(new TimeIndexKey(bucket, what), prefix, after, limit);
        }
        if (where != null) {
            return table.queryKey(new TimeIndexKey(bucket, what, ShardMap.shardOf(where, count)), prefix, after, limit);
        }
        return merged(bucket, what, count, after, limit);
    }

    private RecordsTable.Slice merged(long bucket, String what, int count, String after, int limit) {
        int each = Math.ceilDiv(limit, count);
        List<Callable<RecordsTable.Slice>> reads = new ArrayList<>(count);
        for (int shard = 0; shard < count; shard++) {
            TimeIndexKey key = new TimeIndexKey(bucket, what, shard);
            reads.add(() -> table.queryKey(key, null, after, each));
        }
        List<RecordsTable.Slice> slices = Futures.all(executor, reads);
        String cut = null;
        for (RecordsTable.Slice slice : slices) {
            if (slice.lastKey() != null && (cut == null || compare(slice.lastKey(), cut) < 0)) {
                cut = slice.lastKey();
            }
        }
        List<StoredRecord> records = new ArrayList<>();
        for (RecordsTable.Slice slice : slices) {
            for (StoredRecord record : slice.records()) {
                if (cut == null || compare(record.rangeKey(), cut) <= 0) {
                    records.add(record);
                }
            }
        }
        records.sort((a, b) -> compare(a.rangeKey(), b.rangeKey()));
        return new RecordsTable.Slice(records, cut);
    }

    /** DynamoDB's order of string keys: their UTF-8 bytes, which is code point order (not Java's UTF-16 order). */
    static int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
