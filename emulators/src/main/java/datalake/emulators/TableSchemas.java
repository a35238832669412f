package datalake.emulators;

import static datalake.dynamodb.RecordItems.RANGE_KEY;
import static datalake.dynamodb.RecordItems.TIME_INDEX_KEY;
import static datalake.dynamodb.RecordItems.WHAT_WHERE_KEY;
import static datalake.dynamodb.RecordItems.WORK_ID_INDEX;
import static datalake.dynamodb.RecordItems.WORK_ID_INDEX_KEY;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The key schema of the records and latest tables (docs/DESIGN.md, "Records and keys"): the only code
 * that creates them besides template.yaml. The attribute names are records-dynamodb's.
 */
public final class TableSchemas {
    private TableSchemas() {}

    /** The records table: HASH time_index_key, RANGE range_key, GSI work-id-index, on demand. */
    public static CreateTableRequest recordsTable(String tableName) {
        return CreateTableRequest.builder()
                .tableName(tableName)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        stringAttribute(TIME_INDEX_KEY), stringAttribute(RANGE_KEY), stringAttribute(WORK_ID_INDEX_KEY))
                .keySchema(key(TIME_INDEX_KEY, KeyType.HASH), key(RANGE_KEY, KeyType.RANGE))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder()
                        .indexName(WORK_ID_INDEX)
                        .keySchema(key(WORK_ID_INDEX_KEY, KeyType.HASH), key(RANGE_KEY, KeyType.RANGE))
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build())
                        .build())
                .build();
    }

    /** The latest table: HASH what_where_key, on demand. */
    public static CreateTableRequest latestTable(String tableName) {
        return CreateTableRequest.builder()
                .tableName(tableName)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(stringAttribute(WHAT_WHERE_KEY))
                .keySchema(key(WHAT_WHERE_KEY, KeyType.HASH))
                .build();
    }

    private static AttributeDefinition stringAttribute(String name) {
        return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
