package datalake.query;

import datalake.dynamodb.RecordItems;
import datalake.dynamodb.StoredRecord;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.Record;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A {@link RecordsTable} in memory with DynamoDB's ordering and slicing: range keys in order, at most
 * {@code limit} records a slice, duplicates of one range key on the work-id index. {@code onRead} sees
 * every read (bucket number, or -1 for the index) before it is answered; {@link #itemsRead} and
 * {@link #reads} count what DynamoDB would have read and charged: the items the key condition selects up
 * to the limit, those past a WHERE's end, which are not returned, included.
 */
final class InMemoryRecordsTable implements RecordsTable {
    private final Map<String, TreeMap<String, StoredRecord>> table = new ConcurrentHashMap<>();
    private final Map<String, TreeMap<String, List<StoredRecord>>> workIdIndex = new ConcurrentHashMap<>();
    private volatile Consumer<Long> onRead = bucket -> { };
    private final AtomicLong itemsRead = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();
    private final List<String> keysRead = java.util.Collections.synchronizedList(new ArrayList<>());
    private final List<String> rangeKeysRead = java.util.Collections.synchronizedList(new ArrayList<>());

    InMemoryRecordsTable put(Collection<Record> records) {
        for (Record record : records) {
            String rangeKey = record.rangeKey().toString();
            StoredRecord stored = TestFiles.stored(record);
            table.computeIfAbsent(record.timeIndexKey().toString(), k -> new TreeMap<>()).put(rangeKey, stored);
            List<StoredRecord> sameKey = workIdIndex.computeIfAbsent(record.workIdIndexKey().toString(),
                    k -> new TreeMap<>()).computeIfAbsent(rangeKey, k -> new ArrayList<>());
            sameKey.removeIf(r -> r.bucket() == record.bucket());
            sameKey.add(stored);
        }
        return this;
    }

    /** Items as another writer stored them, no metadata rule applied: in the table, not its index. */
    InMemoryRecordsTable putItems(Collection<Map<String, AttributeValue>> items) {
        for (Map<String, AttributeValue> item : items) {
            StoredRecord stored = StoredRecord.fromItem(item);
            table.computeIfAbsent(item.get(RecordItems.TIME_INDEX_KEY).s(), k -> new TreeMap<>())
                    .put(stored.rangeKey(), stored);
        }
        return this;
    }

    void onRead(Consumer<Long> hook) {
        this.onRead = hook;
    }

    /** Items every read so far read, returned or not. */
    long itemsRead() {
        return itemsRead.get();
    }

    /** The time_index_keys queried so far, in the order asked. */
    List<String> keysRead() {
        synchronized (keysRead) {
            return List.copyOf(keysRead);
        }
    }

    /** The range keys of the items read so far, returned or not, in the order read. */
    List<String> rangeKeysRead() {
        synchronized (rangeKeysRead) {
            return List.copyOf(rangeKeysRead);
        }
    }

    /** Reads (Query calls) so far. */
    long reads() {
        return reads.get();
    }

    @Override
    public Slice queryKey(TimeIndexKey key, String rangePrefix, String after, int limit) {
        onRead.accept(key.bucket());
        keysRead.add(key.toString());
        TreeMap<String, StoredRecord> items = table.getOrDefault(key.toString(), new TreeMap<>());
        return query(new ArrayList<>(items.entrySet()), rangePrefix, after, limit);
    }

    @Override
    public Slice queryWorkId(String workId, String what, String rangePrefix, String after, int limit) {
        onRead.accept(-1L);
        List<Map.Entry<String, StoredRecord>> flat = new ArrayList<>();
        workIdIndex.getOrDefault(workId + ":" + what, new TreeMap<>()).forEach((key, records) ->
                records.forEach(r -> flat.add(Map.entry(key, r))));
        return query(flat, rangePrefix, after, limit);
    }

    /**
     * What DynamoRecordsTable asks and DynamoDB answers: the items its key condition ({@link RangeCondition}'s
     * expression and values, read by {@link KeyConditions} as DynamoDB reads them) selects, in order, read up
     * to {@code limit} and all counted, and of them those before the first outside the WHERE's prefix
     * returned; nothing, and no read, when DynamoRecordsTable would ask nothing.
     */
    private Slice query(List<Map.Entry<String, StoredRecord>> ordered, String prefix, String after, int limit) {
        RangeCondition range = new RangeCondition(prefix, after);
        if (range.empty()) {
            return new Slice(List.of(), null);
        }
        Predicate<String> condition = KeyConditions.of(range.expression(), range.values());
        List<Map.Entry<String, StoredRecord>> selected = ordered.stream()
                .filter(e -> condition.test(e.getKey())).toList();
        int read = Math.min(limit, selected.size());
        reads.incrementAndGet();
        itemsRead.addAndGet(read);
        selected.subList(0, read).forEach(e -> rangeKeysRead.add(e.getKey()));
        List<StoredRecord> records = new ArrayList<>();
        // Like DynamoDB, a full slice has a last key even when nothing follows it.
        String lastKey = selected.size() >= limit ? selected.get(limit - 1).getKey() : null;
        for (int i = 0; i < read; i++) {
            Map.Entry<String, StoredRecord> e = selected.get(i);
            if (prefix != null && !e.getKey().startsWith(prefix)) {
                lastKey = null;
                break;
            }
            records.add(e.getValue());
        }
        return new Slice(records, lastKey);
    }
}
