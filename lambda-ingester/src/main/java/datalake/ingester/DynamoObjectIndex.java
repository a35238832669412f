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
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

/**
 * {@link ObjectIndex} in the records table, under the per-object key space of {@link ObjectItems}.
 * A commit writes the entry over the item it read (strongly consistent) with one UpdateItem on the
 * condition that the item is still that one ({@code commit_id}, or no item), so the replaced state's
 * keys join the stale keys in the same atomic write, each once ({@link ObjectEntry#over}), and the later
 * observation wins whatever the order of the commits: a read showing one rejects the commit. A commit,
 * or a clear of what one left (which changes {@code commit_id} too), landing between the read and the
 * write fails the write, and the item is read again. A file found is most often new: its first write
 * assumes no item, and costs no read.
 */
record DynamoObjectIndex(DynamoDbClient dynamoDb, String table, Backoff backoff) implements ObjectIndex {
    /** BatchGetItem's limit of keys per call. */
    static final int MAX_BATCH_GET = 100;
    /** Reads and writes of one commit before it gives up, every write having met another commit. */
    static final int MAX_COMMIT_ROUNDS = 4;
    private static final String NO_ITEM = "attribute_not_exists(#commit)";
    private static final String SAME_ITEM = "#commit = :seen";
    private static final int MAX_UNPROCESSED_ROUNDS = 8;

    @Override
    public Commit commit(ObjectEntry entry) {
        if (entry.indexed() && write(entry.over(null), null)) {
            return new Commit(true, null);
        }
        for (int round = 0; round < MAX_COMMIT_ROUNDS; round++) {
            ObjectEntry current = get(entry.url());
            if (current != null && current.observedAt() > entry.observedAt()) {
                return Commit.REJECTED;
            }
            if (write(entry.over(current), current)) {
                return new Commit(true, current);
            }
        }
        throw new ContentionException(entry.url() + ": its per-object item changed under each of "
                + MAX_COMMIT_ROUNDS + " commits; SQS delivers the message again.");
    }

    private ObjectEntry get(String url) {
        Map<String, AttributeValue> item = dynamoDb.getItem(r -> r.tableName(table).key(ObjectItems.key(url))
                .consistentRead(true)).item();
        return item == null || item.isEmpty() ? null : ObjectItems.fromItem(item);
    }

    /** Writes {@code entry} if the item is still {@code seen} (null: no item); false when another commit came first. */
    private boolean write(ObjectEntry entry, ObjectEntry seen) {
        Map<String, AttributeValue> attributes = ObjectItems.attributes(entry);
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
            set.append(name).append(" = ").append(value).append(", ");
        }
        set.setLength(set.length() - 2);
        // The attributes of the object that was and this observation has not (an absent object has no id).
        StringBuilder remove = new StringBuilder();
        int removed = 0;
        for (String optional : List.of(ObjectItems.ID, RecordItems.METADATA, RecordItems.CREATE_TIME,
                RecordItems.SIZE, ObjectItems.ETAG, ObjectItems.VERSION_ID, ObjectItems.SEQUENCER,
                ObjectItems.REPLACED, RecordItems.EXPIRES_AT)) {
            if (!attributes.containsKey(optional)) {
                String name = "#r" + removed++;
                names.put(name, optional);
                remove.append(remove.isEmpty() ? " REMOVE " : ", ").append(name);
            }
        }
        names.put("#commit", ObjectItems.COMMIT_ID);
        if (seen != null) {
            values.put(":seen", AttributeValue.fromS(seen.commitId()));
        }
        try {
            dynamoDb.updateItem(r -> r.tableName(table)
                    .key(ObjectItems.key(entry.url()))
                    .updateExpression(set + remove.toString())
                    .conditionExpression(seen == null ? NO_ITEM : SAME_ITEM)
                    .expressionAttributeNames(names)
                    .expressionAttributeValues(values));
            return true;
        } catch (ConditionalCheckFailedException another) {
            return false;
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
                    .updateExpression("REMOVE #stale, #replaced SET #commit = :cleared")
                    .conditionExpression("#commit = :commit")
                    .expressionAttributeNames(Map.of("#stale", ObjectItems.STALE_KEYS, "#replaced", ObjectItems.REPLACED,
                            "#commit", ObjectItems.COMMIT_ID))
                    .expressionAttributeValues(Map.of(":commit", AttributeValue.fromS(commitId),
                            ":cleared", AttributeValue.fromS(UUID.randomUUID().toString()))));
        } catch (ConditionalCheckFailedException newer) {
            // A later commit took them over with the entry: its handler deals with them.
        }
    }

    /** Backs off before reading again, unless the deadline of this thread's calls ({@link CallDeadline}) comes first. */
    private void sleep(Duration delay) {
        Deadline calls = CallDeadline.current();
        if (calls != null && delay.toMillis() >= calls.remainingMillis()) {
            throw new OutOfTimeException("DynamoDB kept reads of per-object items unprocessed (throttling) when the"
                    + " invocation's time budget ran out.");
        }
        try {
            backoff.sleeper().sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading per-object items", e);
        }
    }
}
