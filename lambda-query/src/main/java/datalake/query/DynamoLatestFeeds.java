package datalake.query;

import datalake.dynamodb.RecordItems;
import datalake.dynamodb.StoredRecord;
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
public record DynamoLatestFeeds(DynamoDbClient dynamoDb, String tableName, UnreadableItems unreadable)
        implements LatestFeeds {
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
