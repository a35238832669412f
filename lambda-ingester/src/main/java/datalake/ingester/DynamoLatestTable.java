package datalake.ingester;

import datalake.dynamodb.RecordItems;
import datalake.records.Record;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * {@link LatestTable} on DynamoDB: a conditional PutItem, so that concurrent ingesters converge on the
 * newest file whatever the order of their writes (docs/DESIGN.md, "Decisions, and why").
 */
public record DynamoLatestTable(DynamoDbClient dynamoDb, String table) implements LatestTable {
    /** An older file never replaces a newer one: greater start wins, then greater create_time. */
    static final String CONDITION = "attribute_not_exists(#key) OR #metadata.#start < :start"
            + " OR (#metadata.#start = :start AND #create_time < :create_time)";
    private static final Map<String, String> NAMES = Map.of(
            "#key", RecordItems.WHAT_WHERE_KEY,
            "#metadata", RecordItems.METADATA,
            "#start", "start",
            "#create_time", RecordItems.CREATE_TIME);

    @Override
    public boolean offer(Record record) {
        Map<String, AttributeValue> values = Map.of(
                ":start", AttributeValue.fromN(Long.toString(record.metadata().start())),
                ":create_time", AttributeValue.fromN(Long.toString(record.createTime())));
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
}
