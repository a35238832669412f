package datalake.query;

import datalake.dynamodb.RecordItems;
import datalake.records.Keys.WhatWhereKey;
import datalake.records.Record;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

/** {@link LatestTable} on DynamoDB: a {@code GetItem} by {@code what_where_key = <what>:<where>}. */
public record DynamoLatestTable(DynamoDbClient dynamoDb, String tableName) implements LatestTable {
    @Override
    public Optional<Record> latest(String what, String where) {
        GetItemResponse response = dynamoDb.getItem(r -> r.tableName(tableName).key(Map.of(
                RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS(new WhatWhereKey(what, where).toString()))));
        if (!response.hasItem() || response.item().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(RecordItems.fromItem(response.item()));
    }
}
