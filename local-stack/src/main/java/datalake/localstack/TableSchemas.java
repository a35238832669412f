package datalake.localstack;

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
 * The key schema of the records and latest tables (DESIGN.md, "Records and keys"), and the only code
 * that creates them outside template.yaml. common-records names the same attributes for its codec.
 */
public final class TableSchemas {
    /** Records table HASH key: {@code <bucket>:<what>}. */
    public static final String TIME_INDEX_KEY = "time_index_key";
    /** Records table RANGE key and the work-id index's RANGE key: {@code <where>:<id>}. */
    public static final String RANGE_KEY = "range_key";
    /** HASH key of {@link #WORK_ID_INDEX}: {@code <work_id>:<what>} or {@code null<id>:<what>}. */
    public static final String WORK_ID_INDEX_KEY = "work_id_index_key";
    /** The records table's global secondary index for work-id queries. */
    public static final String WORK_ID_INDEX = "work-id-index";
    /** Latest table HASH key: {@code <what>:<where>}. */
    public static final String WHAT_WHERE_KEY = "what_where_key";

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
