package datalake.query;

import datalake.dynamodb.RecordItems;
import datalake.dynamodb.StoredRecord;
import datalake.records.Keys.WhatWhereKey;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * {@link LatestTable} on DynamoDB. An entry is a {@code GetItem} by {@code what_where_key = <what>:<where>};
 * the feeds are a {@code Scan}, continued from a {@code what_where_key}: the table holds one small item per
 * feed, so a scan is the natural read, and a WHAT is kept with a filter on the key's {@code <what>:} prefix
 * (the scan still reads, and is billed for, the other feeds' items). Items are read liberally (the
 * Python datalake's entries have no {@code size}); an unreadable one is reported and left out, so that
 * {@code /latest} scans the day buckets instead.
 */
record DynamoLatestTable(DynamoDbClient dynamoDb, String tableName, UnreadableItems unreadable)
        implements LatestTable {

    @Override
    public Optional<StoredRecord> latest(String what, String where) {
        GetItemResponse response = dynamoDb.getItem(r -> r.tableName(tableName).key(Map.of(
                RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS(new WhatWhereKey(what, where).toString()))));
        if (!response.hasItem() || response.item().isEmpty()) {
            return Optional.empty();
        }
        return unreadable.read(tableName, response.item());
    }

    @Override
    public RecordsTable.Slice scan(String what, String after, int limit) {
        ScanRequest.Builder request = ScanRequest.builder().tableName(tableName).limit(limit);
        if (after != null) {
            request.exclusiveStartKey(Map.of(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS(after)));
        }
        if (what != null) {
            request.filterExpression("begins_with(#k, :p)")
                    .expressionAttributeNames(Map.of("#k", RecordItems.WHAT_WHERE_KEY))
                    .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(what + ":")));
        }
        ScanResponse response = dynamoDb.scan(request.build());
        List<StoredRecord> records = unreadable.read(tableName, response.items());
        String lastKey = null;
        if (response.hasLastEvaluatedKey() && response.lastEvaluatedKey().containsKey(RecordItems.WHAT_WHERE_KEY)) {
            lastKey = response.lastEvaluatedKey().get(RecordItems.WHAT_WHERE_KEY).s();
        }
        return new RecordsTable.Slice(records, lastKey);
    }
}
