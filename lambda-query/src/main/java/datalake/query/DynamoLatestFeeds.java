package datalake.query;

import datalake.dynamodb.RecordItems;
import datalake.lambda.JsonLog;
import datalake.records.Record;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * {@link LatestFeeds} on DynamoDB: a {@code Scan} of the latest table, continued from a
 * {@code what_where_key}. The table holds one small item per feed, so a scan is the natural read; a
 * WHAT is kept with a filter on the key's {@code <what>:} prefix (the scan still reads, and is billed
 * for, the other feeds' items).
 */
public record DynamoLatestFeeds(DynamoDbClient dynamoDb, String tableName) implements LatestFeeds {
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
        List<Record> records = new ArrayList<>(response.count());
        for (Map<String, AttributeValue> item : response.items()) {
            try {
                records.add(RecordItems.fromItem(item));
            } catch (IllegalArgumentException notARecord) {
                AttributeValue key = item.get(RecordItems.WHAT_WHERE_KEY);
                QueryApi.LOG.warn("skipping a latest-table item that is not a datalake record", g ->
                        JsonLog.field(g, "what_where_key", key == null ? null : JsonLog.shorten(key.s())));
            }
        }
        String lastKey = null;
        if (response.hasLastEvaluatedKey() && response.lastEvaluatedKey().containsKey(RecordItems.WHAT_WHERE_KEY)) {
            lastKey = response.lastEvaluatedKey().get(RecordItems.WHAT_WHERE_KEY).s();
        }
        return new RecordsTable.Slice(records, lastKey);
    }
}
