package datalake.query;

import datalake.dynamodb.StoredRecord;
import datalake.records.Keys.RangeKey;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.ShardMap;
import datalake.records.ShardMapSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One day bucket of a WHAT, whatever its layout (docs/DESIGN.md, "Records and keys"): the plain
 * {@code <day>:<what>}; on a day the shard map shards the WHAT into S, with a WHERE the one key of that
 * WHERE's shard, and without one the S keys of the day; and after a change that re-keyed the day, the
 * keys of its earlier layouts as well ({@link ShardMap#keys}), where files dated ahead of the change, or
 * written by a function still holding the old map, stay. Time queries read it in range-key order
 * ({@link DayReader}: the keys merged); readers that need no order read each key on its own.
 *
 * @param executor runs the reads of a sharded day's keys; never the executor whose tasks call this reader
 */
record BucketReader(RecordsTable table, ShardMapSource shards, ExecutorService executor) {

    /** The day's records of the WHAT (at {@code where}, unless null) in range-key order, after {@code after}. */
    DayReader open(long bucket, String what, String where, String after, int maxRead) {
        return open(bucket, what, where, after, null, false, maxRead);
    }

    /**
     * The same, knowing the WHERE of the first record to come ({@code nextWhere}, or null): without a
     * WHERE, a sharded day's reader then reads that WHERE's key for as much as a page needs at once, and,
     * when the caller keeps every record ({@code dense}: its time range covers the day) and the position
     * lies in that WHERE, that key alone until the WHERE runs out ({@link DayReader}).
     */
    DayReader open(long bucket, String what, String where, String after, String nextWhere, boolean dense,
            int maxRead) {
        ShardMap map = shards.current();
        int shards = map.shards(what, bucket);
        int current = ShardMap.keys(bucket, what, where, shards).size();
        List<TimeIndexKey> keys = map.keys(bucket, what, where);
        DayReader.Advice advice = null;
        int key = where == null && nextWhere != null && shards > 1
                ? keys.indexOf(new TimeIndexKey(bucket, what, ShardMap.shardOf(nextWhere, shards))) : -1;
        if (key >= 0) {
            Set<Integer> holders = new HashSet<>();
            for (TimeIndexKey holder : map.keys(bucket, what, nextWhere)) {
                holders.add(keys.indexOf(holder));
            }
            advice = new DayReader.Advice(nextWhere, key, holders,
                    dense && after != null && after.startsWith(RangeKey.prefix(nextWhere)));
        }
        return new DayReader(table, executor, keys, current, advice, prefix(where), after, maxRead);
    }

    /** How many keys the day of the WHAT (at {@code where}, unless null) is under: what opening it costs. */
    int keys(long bucket, String what, String where) {
        return shards.current().keys(bucket, what, where).size();
    }

    /**
     * Every record of the day of the WHAT (at {@code where}, unless null), each once, each key read to its
     * end with Queries of {@code limit} items, a sharded day's keys concurrently and in no order: for
     * readers that need no order (coverage, the latest file), which a merge would only cost Queries.
     *
     * <p>A file is under two layouts only while a handler moves it (it writes the new key, then deletes
     * the old one), but coverage must not count it twice then: the earlier layouts, usually empty, are
     * read first, and a record of theirs whose range key a current key holds too is left out.
     *
     * @param sinks makes one sink a key: each is fed by one thread, so it needs no lock
     * @return the sinks, one a current key and one for the earlier layouts' records when there are any
     */
    <S extends Consumer<StoredRecord>> List<S> scan(long bucket, String what, String where, int limit,
            Supplier<S> sinks) {
        ShardMap map = shards.current();
        List<TimeIndexKey> all = map.keys(bucket, what, where);
        List<TimeIndexKey> current = ShardMap.keys(bucket, what, where, map.shards(what, bucket));
        Map<String, StoredRecord> earlier = new ConcurrentHashMap<>();
        this.<Consumer<StoredRecord>>readEach(all.subList(current.size(), all.size()), where, limit,
                () -> record -> earlier.putIfAbsent(record.rangeKey(), record));
        List<S> read = new ArrayList<>();
        Supplier<Seen<S>> seen = () -> new Seen<>(sinks.get(), earlier);
        for (Seen<S> key : readEach(current, where, limit, seen)) {
            read.add(key.sink());
        }
        if (!earlier.isEmpty()) {
            S rest = sinks.get();
            earlier.values().forEach(rest);
            read.add(rest);
        }
        return read;
    }

    /** A sink that also strikes the range keys it is fed off the earlier layouts' records. */
    private record Seen<S extends Consumer<StoredRecord>>(S sink, Map<String, StoredRecord> earlier)
            implements Consumer<StoredRecord> {
        @Override
        public void accept(StoredRecord record) {
            if (!earlier.isEmpty()) {
                earlier.remove(record.rangeKey());
            }
            sink.accept(record);
        }
    }

    /** Each key read to its end into a sink of its own, the keys concurrently. */
    private <C extends Consumer<StoredRecord>> List<C> readEach(List<TimeIndexKey> keys, String where, int limit,
            Supplier<C> sinks) {
        String prefix = prefix(where);
        List<Callable<C>> reads = new ArrayList<>();
        for (TimeIndexKey key : keys) {
            reads.add(() -> {
                C sink = sinks.get();
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
