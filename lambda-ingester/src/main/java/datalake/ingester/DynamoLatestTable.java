package datalake.ingester;

import datalake.dynamodb.RecordItems;
import datalake.dynamodb.StoredRecord;
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
    /** The entry is still the one that was read: same file, same object. */
    static final String UNCHANGED = "#url = :url AND #create_time = :create_time AND #metadata.#id = :id";
    private static final Map<String, String> NAMES = Map.of(
            "#key", RecordItems.WHAT_WHERE_KEY,
            "#metadata", RecordItems.METADATA,
            "#start", "start",
            "#create_time", RecordItems.CREATE_TIME);
    private static final Map<String, String> UNCHANGED_NAMES = Map.of(
            "#url", RecordItems.URL,
            "#metadata", RecordItems.METADATA,
            "#id", "id",
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
                    .expressionAttributeValues(values));
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    @Override
    public Optional<Record> current(WhatWhereKey key) {
        Map<String, AttributeValue> item = dynamoDb.getItem(r -> r.tableName(table).consistentRead(true)
                .key(Map.of(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS(key.toString())))).item();
        if (item == null || item.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(RecordItems.fromItem(item));
        } catch (IllegalArgumentException notOurs) {
            // An entry of another writer (the Python datalake's may lack a size): not one we replace.
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
    public boolean replace(Record expected, Optional<StoredRecord> replacement) {
        Map<String, AttributeValue> values = Map.of(
                ":url", AttributeValue.fromS(expected.url()),
                ":create_time", AttributeValue.fromN(Long.toString(expected.createTime())),
                ":id", AttributeValue.fromS(expected.metadata().id()));
        try {
            if (replacement.isEmpty()) {
                dynamoDb.deleteItem(r -> r.tableName(table)
                        .key(Map.of(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS(expected.whatWhereKey().toString())))
                        .conditionExpression(UNCHANGED)
                        .expressionAttributeNames(UNCHANGED_NAMES)
                        .expressionAttributeValues(values));
            } else {
                dynamoDb.putItem(r -> r.tableName(table)
                        .item(replacement.get().toLatestItem())
                        .conditionExpression(UNCHANGED)
                        .expressionAttributeNames(UNCHANGED_NAMES)
                        .expressionAttributeValues(values));
            }
            return true;
        } catch (ConditionalCheckFailedException changed) {
            return false;
        }
    }
}
