package datalake.ingester;

import datalake.dynamodb.RecordItems;
import datalake.dynamodb.StoredRecord;
import datalake.dynamodb.UnreadableItemException;
import datalake.records.Keys.WhatWhereKey;
import datalake.records.Record;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * {@link LatestTable} on DynamoDB: a conditional PutItem, so that concurrent ingesters converge on the
 * newest file whatever the order of their writes (docs/DESIGN.md, "Decisions, and why").
 */
record DynamoLatestTable(DynamoDbClient dynamoDb, String table) implements LatestTable {
    /**
     * An older file never replaces a newer one: greater start wins, then greater create_time; an entry
     * without a numeric create_time (the Python datalake's first format) orders before any other, as the
     * query API orders them.
     */
    static final String CONDITION = "attribute_not_exists(#key) OR #metadata.#start < :start"
            + " OR (#metadata.#start = :start"
            + " AND (#create_time < :create_time OR NOT attribute_type(#create_time, :number)))";
    /**
     * The entry is still the one that was read: same object, same file (range_key), same create_time as
     * stored, or still none (the Python datalake's first format).
     */
    static final String UNCHANGED = "#url = :url AND #range_key = :range_key AND #create_time = :create_time";
    static final String UNCHANGED_WITHOUT_CREATE_TIME = "#url = :url AND #range_key = :range_key"
            + " AND attribute_not_exists(#create_time)";
    private static final Map<String, String> NAMES = Map.of(
            "#key", RecordItems.WHAT_WHERE_KEY,
            "#metadata", RecordItems.METADATA,
            "#start", "start",
            "#create_time", RecordItems.CREATE_TIME);
    private static final Map<String, String> UNCHANGED_NAMES = Map.of(
            "#url", RecordItems.URL,
            "#range_key", RecordItems.RANGE_KEY,
            "#create_time", RecordItems.CREATE_TIME);

    @Override
    public boolean offer(Record record) {
        Map<String, AttributeValue> values = Map.of(
                ":start", AttributeValue.fromN(Long.toString(record.metadata().start())),
                ":create_time", AttributeValue.fromN(Long.toString(record.createTime())),
                ":number", AttributeValue.fromS("N"));
        try {
            dynamoDb.putItem(r -> r.tableName(table)
                    .item(RecordItems.toLatestItem(record))
                    .conditionExpression(CONDITION)
                    .expressionAttributeNames(NAMES)
                    .expressionAttributeValues(values)
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
            return true;
        } catch (ConditionalCheckFailedException e) {
            // AWS returns the entry that failed the condition; an emulator that does not is read
            Map<String, AttributeValue> entry = e.hasItem() && !e.item().isEmpty() ? e.item()
                    : dynamoDb.getItem(r -> r.tableName(table).consistentRead(true).key(Map.of(
                            RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS(record.whatWhereKey().toString())))).item();
            return entry != null && displacesTextStart(record, entry);
        }
    }

    /**
     * An entry whose {@code metadata.start} is stored as text (the Python datalake's) fails every comparison
     * of the condition with a number, so a newer file could never displace it: the entry the failed put
     * returns is ordered here as the query API orders it, and replaced if it is still the same.
     */
    private boolean displacesTextStart(Record record, Map<String, AttributeValue> entry) {
        AttributeValue metadata = entry.get(RecordItems.METADATA);
        AttributeValue start = metadata != null && metadata.hasM() ? metadata.m().get("start") : null;
        if (start == null || start.s() == null) {
            return false;
        }
        StoredRecord kept;
        try {
            kept = StoredRecord.fromItem(entry);
        } catch (UnreadableItemException notARecord) {
            return false;
        }
        if (!StoredRecord.ofLatest(record).isNewerThan(kept)) {
            return false;
        }
        try {
            dynamoDb.putItem(r -> r.tableName(table)
                    .item(RecordItems.toLatestItem(record))
                    .conditionExpression("#metadata.#start = :kept_start AND #url = :url AND #range_key = :range_key")
                    .expressionAttributeNames(Map.of("#metadata", RecordItems.METADATA, "#start", "start",
                            "#url", RecordItems.URL, "#range_key", RecordItems.RANGE_KEY))
                    .expressionAttributeValues(Map.of(":kept_start", start, ":url", AttributeValue.fromS(kept.url()),
                            ":range_key", AttributeValue.fromS(kept.rangeKey()))));
            return true;
        } catch (ConditionalCheckFailedException changed) {
            return false;
        }
    }

    @Override
    public Optional<StoredRecord> current(WhatWhereKey key) {
        Map<String, AttributeValue> item = dynamoDb.getItem(r -> r.tableName(table).consistentRead(true)
                .key(Map.of(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS(key.toString())))).item();
        if (item == null || item.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(StoredRecord.fromItem(item));
        } catch (UnreadableItemException notARecord) {
            // Not even the query API could serve it: nothing names a file to tidy.
            return Optional.empty();
        }
    }

    /**
     * Consistent BatchGetItem, 100 keys a call; keys DynamoDB leaves unprocessed are left out of the
     * answer, not read again: they only cost an offer.
     */
    @Override
    public Map<WhatWhereKey, Record> current(Collection<WhatWhereKey> keys) {
        List<WhatWhereKey> distinct = new ArrayList<>(new LinkedHashSet<>(keys));
        Map<WhatWhereKey, Record> entries = new HashMap<>();
        for (int from = 0; from < distinct.size(); from += DynamoObjectIndex.MAX_BATCH_GET) {
            List<Map<String, AttributeValue>> itemKeys = new ArrayList<>();
            for (WhatWhereKey key : distinct.subList(from, Math.min(distinct.size(), from + DynamoObjectIndex.MAX_BATCH_GET))) {
                itemKeys.add(Map.of(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS(key.toString())));
            }
            KeysAndAttributes read = KeysAndAttributes.builder().keys(itemKeys).consistentRead(true).build();
            BatchGetItemResponse response = dynamoDb.batchGetItem(r -> r.requestItems(Map.of(table, read)));
            for (Map<String, AttributeValue> item : response.responses().getOrDefault(table, List.of())) {
                try {
                    Record entry = RecordItems.fromItem(item);
                    entries.put(entry.whatWhereKey(), entry);
                } catch (IllegalArgumentException notOurs) {
                    // Another writer's entry: unknown, so the offer is made and the table decides.
                }
            }
        }
        return entries;
    }

    @Override
    public boolean replace(StoredRecord expected, Optional<StoredRecord> replacement) {
        AttributeValue createTime = expected.item().get(RecordItems.CREATE_TIME);
        Map<String, AttributeValue> values = new HashMap<>(Map.of(
                ":url", AttributeValue.fromS(expected.url()),
                ":range_key", AttributeValue.fromS(expected.rangeKey())));
        if (createTime != null) {
            values.put(":create_time", createTime); // as stored: a Python entry's may be a fraction
        }
        String unchanged = createTime != null ? UNCHANGED : UNCHANGED_WITHOUT_CREATE_TIME;
        try {
            if (replacement.isEmpty()) {
                dynamoDb.deleteItem(r -> r.tableName(table)
                        .key(Map.of(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS(expected.whatWhereKey())))
                        .conditionExpression(unchanged)
                        .expressionAttributeNames(UNCHANGED_NAMES)
                        .expressionAttributeValues(values));
            } else {
                dynamoDb.putItem(r -> r.tableName(table)
                        .item(replacement.get().toLatestItem())
                        .conditionExpression(unchanged)
                        .expressionAttributeNames(UNCHANGED_NAMES)
                        .expressionAttributeValues(values));
            }
            return true;
        } catch (ConditionalCheckFailedException changed) {
            return false;
        }
    }
}
