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
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A {@link RecordsTable} in memory with DynamoDB's ordering and slicing: range keys in order, at most
 * {@code limit} records a slice, duplicates of one range key on the work-id index. {@code onRead} sees
 * every read (bucket number, or -1 for the index) before it is answered; {@link #itemsRead} and
 * {@link #reads} count what DynamoDB would have read and charged.
 */
final class InMemoryRecordsTable implements RecordsTable {
    private final Map<String, TreeMap<String, StoredRecord>> table = new ConcurrentHashMap<>();
    private final Map<String, TreeMap<String, List<StoredRecord>>> workIdIndex = new ConcurrentHashMap<>();
    private volatile Consumer<Long> onRead = bucket -> { };
    private final AtomicLong itemsRead = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();
    private final List<String> keysRead = java.util.Collections.synchronizedList(new ArrayList<>());

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

    /** Items returned by every read so far. */
    long itemsRead() {
        return itemsRead.get();
    }

    /** The time_index_keys queried so far, in the order asked. */
    List<String> keysRead() {
        synchronized (keysRead) {
            return List.copyOf(keysRead);
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
        return counted(slice(new ArrayList<>(items.entrySet()), rangePrefix, after, limit));
    }

    @Override
    public Slice queryWorkId(String workId, String what, String rangePrefix, String after, int limit) {
        onRead.accept(-1L);
        List<Map.Entry<String, StoredRecord>> flat = new ArrayList<>();
        workIdIndex.getOrDefault(workId + ":" + what, new TreeMap<>()).forEach((key, records) ->
                records.forEach(r -> flat.add(Map.entry(key, r))));
        return counted(slice(flat, rangePrefix, after, limit));
    }

    private Slice counted(Slice slice) {
        reads.incrementAndGet();
        itemsRead.addAndGet(slice.records().size());
        return slice;
    }

    /** What DynamoDbRecordsTable does: begins_with without a position, "> after" and a prefix stop with one. */
    private static Slice slice(List<Map.Entry<String, StoredRecord>> ordered, String prefix, String after, int limit) {
        List<Map.Entry<String, StoredRecord>> candidates = ordered.stream()
                .filter(e -> after != null ? e.getKey().compareTo(after) > 0 : prefix == null || e.getKey().startsWith(prefix))
                .toList();
        List<StoredRecord> records = new ArrayList<>();
        int read = Math.min(limit, candidates.size());
        // Like DynamoDB, a full slice has a last key even when nothing follows it.
        String lastKey = candidates.size() >= limit ? candidates.get(limit - 1).getKey() : null;
        for (int i = 0; i < read; i++) {
            Map.Entry<String, StoredRecord> e = candidates.get(i);
            if (prefix != null && !e.getKey().startsWith(prefix)) {
                lastKey = null;
                break;
            }
            records.add(e.getValue());
        }
        return new Slice(records, lastKey);
    }
}
