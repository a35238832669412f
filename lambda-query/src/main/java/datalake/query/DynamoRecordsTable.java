package datalake.query;

import datalake.dynamodb.RecordItems;
import datalake.lambda.JsonLog;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.Keys.WorkIdIndexKey;
import datalake.records.Record;
import java.util.ArrayList;
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
 * <p>Continuation uses the key condition {@code range_key > :after} rather than {@code ExclusiveStartKey}:
 * on the GSI several records share one range key (a file in several buckets), and {@code >} skips the
 * rest of them, which is what de-duplicates work-id results. A key condition allows one test of the
 * range key, so with both a WHERE and a position the WHERE is enforced here: keys are ordered, and the
 * first key outside the prefix ends the slice.
 */
public record DynamoRecordsTable(DynamoDbClient dynamoDb, String tableName) implements RecordsTable {
    @Override
    public Slice queryBucket(long bucket, String what, String rangePrefix, String after, int limit) {
        return query(null, RecordItems.TIME_INDEX_KEY, new TimeIndexKey(bucket, what).toString(), rangePrefix, after,
                limit);
    }

    @Override
    public Slice queryWorkId(String workId, String what, String rangePrefix, String after, int limit) {
        return query(RecordItems.WORK_ID_INDEX, RecordItems.WORK_ID_INDEX_KEY,
                new WorkIdIndexKey(workId, what).toString(), rangePrefix, after, limit);
    }

    private Slice query(String index, String hashName, String hashValue, String prefix, String after, int limit) {
        Map<String, String> names = new HashMap<>(4);
        Map<String, AttributeValue> values = new HashMap<>(4);
        names.put("#h", hashName);
        values.put(":h", AttributeValue.fromS(hashValue));
        String condition = "#h = :h";
        if (after != null) {
            names.put("#r", RecordItems.RANGE_KEY);
            values.put(":r", AttributeValue.fromS(after));
            condition += " AND #r > :r";
        } else if (prefix != null) {
            names.put("#r", RecordItems.RANGE_KEY);
            values.put(":r", AttributeValue.fromS(prefix));
            condition += " AND begins_with(#r, :r)";
        }
        QueryResponse response = dynamoDb.query(QueryRequest.builder()
                .tableName(tableName)
                .indexName(index)
                .keyConditionExpression(condition)
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .limit(limit)
                .build());
        List<Record> records = new ArrayList<>(response.count());
        String lastKey = response.hasLastEvaluatedKey() && response.lastEvaluatedKey().containsKey(RecordItems.RANGE_KEY)
                ? response.lastEvaluatedKey().get(RecordItems.RANGE_KEY).s() : null;
        for (Map<String, AttributeValue> item : response.items()) {
            AttributeValue rangeKey = item.get(RecordItems.RANGE_KEY);
            if (prefix != null && (rangeKey == null || rangeKey.s() == null || !rangeKey.s().startsWith(prefix))) {
                lastKey = null;
                break;
            }
            try {
                records.add(RecordItems.fromItem(item));
            } catch (IllegalArgumentException notARecord) {
                // One bad item must not hide every other answer; it is logged for whoever owns the table.
                String hash = hashName + "=" + hashValue;
                QueryApi.LOG.warn("skipping an item that is not a datalake record", g -> {
                    g.writeStringField("hash_key", JsonLog.shorten(hash));
                    JsonLog.field(g, "range_key", rangeKey == null ? null : JsonLog.shorten(rangeKey.s()));
                });
            }
        }
        return new Slice(records, lastKey);
    }
}
