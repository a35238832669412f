package datalake.ingester;

import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.ObjectItems;
import datalake.dynamodb.RecordItems;
import datalake.dynamodb.RecordKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * {@link ObjectIndex} in the records table, under the per-object key space of {@link ObjectItems}.
 * A commit is one conditional UpdateItem that returns the item it replaced: the condition
 * {@code observed_at <= :observed_at} lets the later observation win whatever the order of the
 * writes, and {@code stale_keys = list_append(stale_keys, record_keys)} keeps the previous state's
 * keys for deletion in the same atomic write.
 */
record DynamoObjectIndex(DynamoDbClient dynamoDb, String table, Backoff backoff) implements ObjectIndex {
    /** BatchGetItem's limit of keys per call. */
    static final int MAX_BATCH_GET = 100;
    static final String CONDITION = "attribute_not_exists(#observed_at) OR #observed_at <= :observed_at";
    private static final AttributeValue EMPTY = AttributeValue.fromL(List.of());
    private static final int MAX_UNPROCESSED_ROUNDS = 8;

    @Override
    public Commit commit(ObjectEntry entry) {
        Map<String, AttributeValue> attributes = ObjectItems.attributes(entry);
        attributes.remove(ObjectItems.STALE_KEYS);
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        StringBuilder set = new StringBuilder("SET ");
        int n = 0;
        for (Map.Entry<String, AttributeValue> attribute : attributes.entrySet()) {
            String name = "#a" + n;
            String value = ":v" + n;
            n++;
            names.put(name, attribute.getKey());
            values.put(value, attribute.getValue());
            if (attribute.getKey().equals(ObjectItems.RECORD_KEYS)) {
                // Read before the write: the keys being replaced go to the stale list in this same update.
                names.put("#stale", ObjectItems.STALE_KEYS);
                names.put("#keys", ObjectItems.RECORD_KEYS);
                set.append("#stale = list_append(if_not_exists(#stale, :empty), if_not_exists(#keys, :empty)), ");
            }
            set.append(name).append(" = ").append(value).append(", ");
        }
        set.setLength(set.length() - 2);
        // The attributes of the object that was and this observation has not (an absent object has no id).
        StringBuilder remove = new StringBuilder();
        int removed = 0;
        for (String optional : List.of(ObjectItems.ID, RecordItems.METADATA, RecordItems.CREATE_TIME,
                RecordItems.SIZE, ObjectItems.ETAG, ObjectItems.VERSION_ID, ObjectItems.SEQUENCER,
                RecordItems.EXPIRES_AT)) {
            if (!attributes.containsKey(optional)) {
                String name = "#r" + removed++;
                names.put(name, optional);
                remove.append(remove.isEmpty() ? " REMOVE " : ", ").append(name);
            }
        }
        names.put("#observed_at", ObjectItems.OBSERVED_AT);
        values.put(":observed_at", attributes.get(ObjectItems.OBSERVED_AT));
        values.put(":empty", EMPTY);
        try {
            UpdateItemResponse response = dynamoDb.updateItem(r -> r.tableName(table)
                    .key(ObjectItems.key(entry.url()))
                    .updateExpression(set + remove.toString())
                    .conditionExpression(CONDITION)
                    .expressionAttributeNames(names)
                    .expressionAttributeValues(values)
                    .returnValues(ReturnValue.ALL_OLD));
            return new Commit(true, response.hasAttributes() && !response.attributes().isEmpty()
                    ? ObjectItems.fromItem(response.attributes()) : null);
        } catch (ConditionalCheckFailedException later) {
            return Commit.REJECTED;
        }
    }

    @Override
    public Map<String, ObjectEntry> read(Collection<String> urls) {
        Map<String, ObjectEntry> entries = new LinkedHashMap<>();
        List<String> all = new ArrayList<>(urls);
        for (int from = 0; from < all.size(); from += MAX_BATCH_GET) {
            List<Map<String, AttributeValue>> keys = new ArrayList<>();
            for (String url : all.subList(from, Math.min(all.size(), from + MAX_BATCH_GET))) {
                keys.add(ObjectItems.key(url));
            }
            KeysAndAttributes request = KeysAndAttributes.builder().keys(keys).consistentRead(true).build();
            int round = 0;
            while (request != null) {
                KeysAndAttributes pending = request;
                BatchGetItemResponse response = dynamoDb.batchGetItem(r -> r.requestItems(Map.of(table, pending)));
                for (Map<String, AttributeValue> item : response.responses().getOrDefault(table, List.of())) {
                    ObjectEntry entry = ObjectItems.fromItem(item);
                    entries.put(entry.url(), entry);
                }
                KeysAndAttributes unprocessed = response.hasUnprocessedKeys()
                        ? response.unprocessedKeys().get(table) : null;
                request = unprocessed == null || !unprocessed.hasKeys() || unprocessed.keys().isEmpty() ? null : unprocessed;
                if (request != null) {
                    if (++round > MAX_UNPROCESSED_ROUNDS) {
                        throw new IllegalStateException("DynamoDB kept reads of per-object items unprocessed (throttling).");
                    }
                    sleep(backoff.delay(round));
                }
            }
        }
        return entries;
    }

    @Override
    public int removeRecords(String url, Collection<RecordKey> keys) {
        int removed = 0;
        for (RecordKey key : keys) {
            try {
                dynamoDb.deleteItem(r -> r.tableName(table).key(key.item())
                        .conditionExpression("#url = :url")
                        .expressionAttributeNames(Map.of("#url", RecordItems.URL))
                        .expressionAttributeValues(Map.of(":url", AttributeValue.fromS(url))));
                removed++;
            } catch (ConditionalCheckFailedException gone) {
                // Already deleted, or another object's record holds the key now: it stays.
            }
        }
        return removed;
    }

    @Override
    public void clearStale(String url, String commitId) {
        try {
            dynamoDb.updateItem(r -> r.tableName(table).key(ObjectItems.key(url))
                    .updateExpression("REMOVE #stale")
                    .conditionExpression("#commit = :commit")
                    .expressionAttributeNames(Map.of("#stale", ObjectItems.STALE_KEYS, "#commit", ObjectItems.COMMIT_ID))
                    .expressionAttributeValues(Map.of(":commit", AttributeValue.fromS(commitId))));
        } catch (ConditionalCheckFailedException newer) {
            // A later commit took the stale keys over with the entry: its handler deletes them.
        }
    }

    private void sleep(Duration delay) {
        try {
            backoff.sleeper().sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading per-object items", e);
        }
    }
}
