package datalake.query;

import datalake.dynamodb.RecordItems;
import datalake.dynamodb.StoredRecord;
import datalake.records.Keys.WhatWhereKey;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

/**
 * {@link LatestTable} on DynamoDB: a {@code GetItem} by {@code what_where_key = <what>:<where>}, read
 * liberally (the Python datalake's entries have no {@code size}); an unreadable entry is reported and
 * answered as none, so that the day buckets are scanned instead.
 */
public record DynamoLatestTable(DynamoDbClient dynamoDb, String tableName, UnreadableItems unreadable)
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
}
