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
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One day bucket of a WHAT, whatever its layout (docs/DESIGN.md, "Records and keys"): the plain
 * {@code <day>:<what>}; on a day the shard map shards the WHAT into S, with a WHERE the one key of that
 * WHERE's shard, and without one the S keys of the day. Time queries read it in range-key order
 * ({@link DayReader}: the keys merged); readers that need no order read each key on its own.
 *
 * @param executor runs the reads of a sharded day's keys; never the executor whose tasks call this reader
 */
record BucketReader(RecordsTable table, ShardMapSource shards, ExecutorService executor) {

    /** The day's records of the WHAT (at {@code where}, unless null) in range-key order, after {@code after}. */
    DayReader open(long bucket, String what, String where, String after, int maxRead) {
        return new DayReader(table, executor, keys(bucket, what, where), prefix(where), after, maxRead);
    }

    /**
     * Every record of the day of the WHAT (at {@code where}, unless null), each key read to its end with
     * Queries of {@code limit} items, a sharded day's keys concurrently and in no order: for readers that
     * need no order (coverage, the latest file), which a merge would only cost Queries.
     *
     * @param sinks makes one sink a key: each is fed by one thread, so it needs no lock
     * @return the sinks, one a key, each fed with its key's records
     */
    <S extends Consumer<StoredRecord>> List<S> scan(long bucket, String what, String where, int limit,
            Supplier<S> sinks) {
        String prefix = prefix(where);
        List<Callable<S>> reads = new ArrayList<>();
        for (TimeIndexKey key : keys(bucket, what, where)) {
            reads.add(() -> {
                S sink = sinks.get();
                String position = null;
                do {
                    RecordsTable.Slice slice = table.queryKey(key, prefix, position, limit);
                    slice.records().forEach(sink);
                    position = slice.lastKey();
                } while (position != null);
                return sink;
            });
        }
        return Futures.all(executor, reads);
    }

    /** The keys a reader of the day's records of the WHAT (at {@code where}, unless null) reads. */
    List<TimeIndexKey> keys(long bucket, String what, String where) {
        int count = shards.current().shards(what, bucket);
        if (count == 1) {
            return List.of(new TimeIndexKey(bucket, what));
        }
        if (where != null) {
            return List.of(new TimeIndexKey(bucket, what, ShardMap.shardOf(where, count)));
        }
        List<TimeIndexKey> keys = new ArrayList<>(count);
        for (int shard = 0; shard < count; shard++) {
            keys.add(new TimeIndexKey(bucket, what, shard));
        }
        return keys;
    }

    private static String prefix(String where) {
        return where == null ? null : RangeKey.prefix(where);
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
