package datalake.emulators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import datalake.dynamodb.RecordItems;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

class DynamoDbLocalIT {

    @Test
    void itStopsAndStartsAgainOnTheSamePortWithEmptyTables() {
        try (DynamoDbLocal dynamo = new DynamoDbLocal()) {
            dynamo.start();
            int port = dynamo.port();
            DynamoDbClient client = Emulators.clientsFor(dynamo.endpoint()).build(DynamoDbClient.builder(),
                    c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()));
            client.createTable(latestTable());
            client.putItem(r -> r.tableName("latest").item(Map.of(
                    RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS("syslog:web01"), "size", AttributeValue.fromN("42"))));

            assertEquals("42", client.getItem(r -> r.tableName("latest")
                    .key(Map.of(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS("syslog:web01")))).item().get("size").n());

            dynamo.stop();
            assertFalse(dynamo.isRunning());
            assertThrows(SdkClientException.class, () -> client.listTables());

            dynamo.start();
            assertTrue(dynamo.isRunning());
            assertEquals(port, dynamo.port());
            assertThrows(ResourceNotFoundException.class, () -> client.describeTable(r -> r.tableName("latest")));
            client.createTable(latestTable());
            assertEquals(0, client.scan(r -> r.tableName("latest")).count());
            client.close();
        }
    }

    @Test
    void aChosenPortIsUsed() {
        int port = DynamoDbLocal.freePort();
        try (DynamoDbLocal dynamo = new DynamoDbLocal(port)) {
            dynamo.start();
            dynamo.start(); // a second start is a no-op

            assertEquals("http://127.0.0.1:" + port, dynamo.endpoint().toString());
            try (DynamoDbClient client = Emulators.clientsFor(dynamo.endpoint()).build(DynamoDbClient.builder())) {
                assertTrue(client.listTables().tableNames().isEmpty());
            }
        }
    }

    /** A table keyed like the latest table. */
    private static CreateTableRequest latestTable() {
        return CreateTableRequest.builder().tableName("latest").billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(AttributeDefinition.builder().attributeName(RecordItems.WHAT_WHERE_KEY)
                        .attributeType(ScalarAttributeType.S).build())
                .keySchema(KeySchemaElement.builder().attributeName(RecordItems.WHAT_WHERE_KEY).keyType(KeyType.HASH).build())
                .build();
    }
}
