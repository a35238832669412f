package datalake.query;

import datalake.dynamodb.StoredRecord;
import datalake.records.Keys.RangeKey;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.ShardMap;
import datalake.records.ShardMapSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
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
        if (where == null && nextWhere != null && shards > 1) {
            // the WHERE's key under each of the day's layouts, the current layout's first
            List<TimeIndexKey> ofWhere = map.keys(bucket, what, nextWhere);
            Set<Integer> holders = new HashSet<>();
            ofWhere.forEach(holder -> holders.add(keys.indexOf(holder)));
            advice = new DayReader.Advice(nextWhere, keys.indexOf(ofWhere.getFirst()), holders,
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
     * the old one), but coverage must not count it twice then: the earlier layouts' own keys, usually
     * empty, are read first, and a record of theirs whose range key a current key holds too is left out.
     * After a change from one shard count to another (2 to 4) an earlier layout's key is a current key
     * too (shard s of 2 is shard s of 4): a record there whose WHERE's shard is another now is held back,
     * and counted only if that shard, read for its WHERE once all keys are read, does not hold it.
     *
     * @param sinks makes one sink a key: each is fed by one thread, so it needs no lock
     * @return the sinks, one a current key and one for the earlier layouts' records when there are any
     */
    <S extends Consumer<StoredRecord>> List<S> scan(long bucket, String what, String where, int limit,
            Supplier<S> sinks) {
        ShardMap map = shards.current();
        List<TimeIndexKey> all = map.keys(bucket, what, where);
        int now = map.shards(what, bucket);
        List<TimeIndexKey> current = ShardMap.keys(bucket, what, where, now);
        Map<String, StoredRecord> earlier = new ConcurrentHashMap<>();
        this.<Consumer<StoredRecord>>readEach(all.subList(current.size(), all.size()), where, limit,
                key -> record -> earlier.putIfAbsent(record.rangeKey(), record));
        // Another sharded layout's keys are some of the current ones: each record there is checked for its place.
        boolean shared = now > 1 && map.layouts(what, bucket).stream().anyMatch(s -> s > 1 && s != now);
        Map<String, StoredRecord> moved = new ConcurrentHashMap<>();
        List<S> read = new ArrayList<>();
        for (Seen<S> key : readEach(current, where, limit, key -> new Seen<>(sinks.get(), earlier,
                shared ? record -> !key.equals(map.timeIndexKey(bucket, what, record.where())) : record -> false,
                moved))) {
            read.add(key.sink());
        }
        moved.keySet().removeAll(earlier.keySet());
        if (!moved.isEmpty()) {
            Set<String> elsewhere = atHome(map, bucket, what, moved.values(), limit);
            moved.values().stream().filter(r -> !elsewhere.contains(r.rangeKey()))
                    .forEach(r -> earlier.put(r.rangeKey(), r));
        }
        if (!earlier.isEmpty()) {
            S rest = sinks.get();
            earlier.values().forEach(rest);
            read.add(rest);
        }
        return read;
    }

    /**
     * A current key's sink that also strikes the range keys it is fed off the earlier layouts' records,
     * and holds back the records an earlier layout left in it ({@code misplaced}) for {@link #scan} to check.
     */
    private record Seen<S extends Consumer<StoredRecord>>(S sink, Map<String, StoredRecord> earlier,
            Predicate<StoredRecord> misplaced, Map<String, StoredRecord> moved) implements Consumer<StoredRecord> {
        @Override
        public void accept(StoredRecord record) {
            if (misplaced.test(record)) {
                moved.putIfAbsent(record.rangeKey(), record);
                return;
            }
            if (!earlier.isEmpty()) {
                earlier.remove(record.rangeKey());
            }
            sink.accept(record);
        }
    }

    /**
     * The range keys among these records' that the current shard of their WHERE holds too: each such WHERE
     * read there, concurrently.
     */
    private Set<String> atHome(ShardMap map, long bucket, String what, Collection<StoredRecord> records, int limit) {
        Set<String> wheres = new HashSet<>();
        records.forEach(r -> wheres.add(r.where()));
        List<Callable<Set<String>>> reads = new ArrayList<>();
        for (String where : wheres) {
            reads.add(() -> {
                Set<String> held = new HashSet<>();
                readKey(map.timeIndexKey(bucket, what, where), prefix(where), limit, r -> held.add(r.rangeKey()));
                return held;
            });
        }
        Set<String> held = new HashSet<>();
        Futures.all(executor, reads).forEach(held::addAll);
        return held;
    }

    /** Each key read to its end into a sink of its own, the keys concurrently. */
    private <C extends Consumer<StoredRecord>> List<C> readEach(List<TimeIndexKey> keys, String where, int limit,
            Function<TimeIndexKey, C> sinks) {
        List<Callable<C>> reads = new ArrayList<>();
        for (TimeIndexKey key : keys) {
            reads.add(() -> {
                C sink = sinks.apply(key);
                readKey(key, prefix(where), limit, sink);
                return sink;
            });
        }
        return Futures.all(executor, reads);
    }

    /** One key read to its end (at a WHERE's prefix, unless null) into the sink, {@code limit} items a Query. */
    private void readKey(TimeIndexKey key, String prefix, int limit, Consumer<StoredRecord> sink) {
        String position = null;
        do {
            RecordsTable.Slice slice = table.queryKey(key, prefix, position, limit);
            slice.records().forEach(sink);
            position = slice.lastKey();
        } while (position != null);
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
