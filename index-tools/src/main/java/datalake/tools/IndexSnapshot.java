package datalake.tools;

import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.ObjectItems;
import datalake.dynamodb.RecordItems;
import datalake.dynamodb.RecordKey;
import datalake.records.Record;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/**
 * What the index holds for the objects under a URL prefix: every record item, grouped by URL, and every
 * per-object item, read by a parallel, strongly consistent Scan of the records table (filtered on the
 * URL, so the whole table is read but only these items travel), and the latest table's entries: those
 * naming a file under the prefix, and the WHAT and WHERE of every entry (one a feed: a small table, read
 * whole, since the entry of a feed under the prefix may name a newer file elsewhere). Records this code
 * cannot read (an older writer's, say) are kept by key, to be reported and repaired.
 */
final class IndexSnapshot {
    static final int SEGMENTS = 4;

    /** The records of one URL: those read, and the keys of those that could not be. */
    record Stored(List<Record> records, List<RecordKey> unreadable) {
        List<RecordKey> keys() {
            List<RecordKey> keys = new ArrayList<>(unreadable);
            records.forEach(r -> keys.add(RecordKey.of(r)));
            return keys;
        }
    }

    final Map<String, Stored> records = new ConcurrentHashMap<>();
    final Map<String, ObjectEntry> entries = new ConcurrentHashMap<>();
    final List<Record> latest = new ArrayList<>();
    /** The {@code what_where_key} of every latest entry, readable or not. */
    final Set<String> latestKeys = new HashSet<>();
    final AtomicLong scanned = new AtomicLong();

    static IndexSnapshot read(DynamoDbClient dynamoDb, String recordsTable, String latestTable, Target target) {
        IndexSnapshot snapshot = new IndexSnapshot();
        ExecutorService pool = Executors.newFixedThreadPool(SEGMENTS);
        try {
            List<Future<?>> segments = new ArrayList<>();
            for (int segment = 0; segment < SEGMENTS; segment++) {
                int s = segment;
                segments.add(pool.submit(() -> snapshot.scan(dynamoDb, recordsTable, target, s)));
            }
            for (Future<?> future : segments) {
                future.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the index", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
        ScanRequest request = ScanRequest.builder().tableName(latestTable).consistentRead(true).build();
        for (Map<String, AttributeValue> item : dynamoDb.scanPaginator(request).items()) {
            AttributeValue key = item.get(RecordItems.WHAT_WHERE_KEY);
            if (key != null) {
                snapshot.latestKeys.add(key.s());
            }
            try {
                Record entry = RecordItems.fromItem(item);
                if (entry.url().startsWith(target.urlPrefix())) {
                    snapshot.latest.add(entry);
                }
            } catch (IllegalArgumentException notOurs) {
                // an entry this code cannot read is never one it replaces
            }
        }
        return snapshot;
    }

    private void scan(DynamoDbClient dynamoDb, String table, Target target, int segment) {
        ScanRequest request = filtered(table, target).segment(segment).totalSegments(SEGMENTS).consistentRead(true)
                .build();
        for (Map<String, AttributeValue> item : dynamoDb.scanPaginator(request).items()) {
            scanned.incrementAndGet();
            if (ObjectItems.isObjectItem(item)) {
                ObjectEntry entry = ObjectItems.fromItem(item);
                entries.put(entry.url(), entry);
                continue;
            }
            String url = item.get(RecordItems.URL).s();
            Stored stored = records.computeIfAbsent(url, u -> new Stored(new ArrayList<>(), new ArrayList<>()));
            synchronized (stored) {
                try {
                    stored.records().add(RecordItems.fromItem(item));
                } catch (IllegalArgumentException unreadable) {
                    stored.unreadable().add(new RecordKey(item.get(RecordItems.TIME_INDEX_KEY).s(),
                            item.get(RecordItems.RANGE_KEY).s()));
                }
            }
        }
    }

    private static ScanRequest.Builder filtered(String table, Target target) {
        return ScanRequest.builder().tableName(table)
                .filterExpression("begins_with(#url, :prefix)")
                .expressionAttributeNames(Map.of("#url", RecordItems.URL))
                .expressionAttributeValues(Map.of(":prefix", AttributeValue.fromS(target.urlPrefix())));
    }
}
