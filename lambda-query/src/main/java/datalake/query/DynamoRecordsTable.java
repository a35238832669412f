package datalake.query;

import datalake.dynamodb.RecordItems;
import datalake.dynamodb.StoredRecord;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.Keys.WorkIdIndexKey;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * {@link RecordsTable} on DynamoDB: one {@code Query} per slice, on the table or its GSI
 * {@code work-id-index}.
 *
 * <p>Continuation uses the key condition ({@link RangeCondition}: the keys after {@code :after}) rather
 * than {@code ExclusiveStartKey}: on the GSI several records share one range key (a file in several
 * buckets), and a condition skips the rest of them, which is what de-duplicates work-id results. With
 * both a WHERE and a position the condition ends at the WHERE's last key, and a key outside the prefix
 * (none of ours) still ends the slice. Items are read liberally ({@link StoredRecord}); one that
 * is no record at all is left out, logged and counted ({@link UnreadableItems}).
 */
record DynamoRecordsTable(DynamoDbClient dynamoDb, String tableName, UnreadableItems unreadable)
        implements RecordsTable {

    @Override
    public Slice queryKey(TimeIndexKey key, String rangePrefix, String after, int limit) {
        return query(null, RecordItems.TIME_INDEX_KEY, key.toString(), rangePrefix, after, limit);
    }

    @Override
    public Slice queryWorkId(String workId, String what, String rangePrefix, String after, int limit) {
        return query(RecordItems.WORK_ID_INDEX, RecordItems.WORK_ID_INDEX_KEY,
                new WorkIdIndexKey(workId, what).toString(), rangePrefix, after, limit);
    }

    private Slice query(String index, String hashName, String hashValue, String prefix, String after, int limit) {
        RangeCondition range = new RangeCondition(prefix, after);
        if (range.empty()) {
            return new Slice(List.of(), null);
        }
        Map<String, String> names = new HashMap<>(4);
        Map<String, AttributeValue> values = new HashMap<>(4);
        names.put("#h", hashName);
        values.put(":h", AttributeValue.fromS(hashValue));
        String condition = "#h = :h";
        if (range.expression() != null) {
            names.put("#r", RecordItems.RANGE_KEY);
            values.putAll(range.values());
            condition += " AND " + range.expression();
        }
        QueryResponse response = dynamoDb.query(QueryRequest.builder()
                .tableName(tableName)
                .indexName(index)
                .keyConditionExpression(condition)
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .limit(limit)
                .build());
        String lastKey = response.hasLastEvaluatedKey() && response.lastEvaluatedKey().containsKey(RecordItems.RANGE_KEY)
                ? response.lastEvaluatedKey().get(RecordItems.RANGE_KEY).s() : null;
        List<Map<String, AttributeValue>> items = response.items();
        if (prefix != null) {
            for (int i = 0; i < items.size(); i++) {
                AttributeValue rangeKey = items.get(i).get(RecordItems.RANGE_KEY);
                if (rangeKey == null || rangeKey.s() == null || !rangeKey.s().startsWith(prefix)) {
                    items = items.subList(0, i);
                    lastKey = null;
                    break;
                }
            }
        }
        return new Slice(unreadable.read(tableName, items), lastKey);
    }
}
