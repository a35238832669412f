package datalake.bench.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.emulators.Dynalite;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The proxy in front of dynalite, through the real SDK: what a caller sees of a hot key is what
 * DynamoDB shows. DynamoDB's limits divided by 100 (10 write units a second per key), on a clock the
 * test moves, so nothing here depends on timing.
 */
@ExtendWith(EmulatorsExtension.class)
class ThrottlingProxyIT {
    private static final long SECOND = 1_000_000_000L;
    private static final AtomicInteger TABLES = new AtomicInteger();

    private final AtomicLong clock = new AtomicLong();
    private final String table = "throttled-" + TABLES.incrementAndGet();
    private ThrottlingProxy proxy;

    @BeforeEach
    void tableBehindTheProxy(DynamoDbClient direct) {
        direct.createTable(r -> r.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(attribute("pk"), attribute("sk"), attribute("g"))
                .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("by-g")
                        .keySchema(key("g", KeyType.HASH), key("sk", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL)).build()));
        Dynalite.awaitActive(direct, table);
        proxy = ThrottlingProxy.start(Emulators.shared().dynamoDbEndpoint(),
                new PartitionModel(PartitionLimits.scaledDown(100), clock::get));
    }

    @AfterEach
    void close(DynamoDbClient direct) {
        proxy.close();
        direct.deleteTable(r -> r.tableName(table));
    }

    @Test
    void aBatchWriteOverTheLimitGetsUnprocessedItemsAndTheRestIsWritten(DynamoDbClient direct) {
        DynamoDbClient dynamo = client(List.of());
        List<WriteRequest> writes = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            writes.add(WriteRequest.builder().putRequest(PutRequest.builder().item(item("day:hot", "s" + i, "g" + i)).build()).build());
        }

        BatchWriteItemResponse response = dynamo.batchWriteItem(r -> r.requestItems(Map.of(table, writes)));

        List<WriteRequest> unprocessed = response.unprocessedItems().get(table);
        assertEquals(15, unprocessed.size());
        Set<String> stored = new HashSet<>();
        direct.query(r -> r.tableName(table).keyConditionExpression("pk = :h")
                .expressionAttributeValues(Map.of(":h", AttributeValue.fromS("day:hot"))))
                .items().forEach(item -> stored.add(item.get("sk").s()));
        Set<String> returned = new HashSet<>();
        unprocessed.forEach(w -> returned.add(w.putRequest().item().get("sk").s()));
        assertEquals(10, stored.size());
        assertEquals(Set.of(), intersection(stored, returned), "an item is either written or returned, never both");
        assertEquals(15, proxy.model().throttledWrites());
    }

    @Test
    void aPutItemOverTheLimitIsRefusedAndTheSdkRetriesIt(DynamoDbClient direct) {
        AtomicInteger attempts = new AtomicInteger();
        // The clock moves one second when the SDK sends its second attempt: the key has refilled by then.
        DynamoDbClient dynamo = client(List.of(new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                if (attempts.incrementAndGet() == 12) {
                    clock.addAndGet(SECOND);
                }
            }
        }));
        for (int i = 0; i < 10; i++) {
            int n = i;
            dynamo.putItem(r -> r.tableName(table).item(item("day:hot", "s" + n, "g" + n)));
        }

        dynamo.putItem(r -> r.tableName(table).item(item("day:hot", "late", "g-late")));

        assertEquals(12, attempts.get(), "ten puts, and the eleventh twice");
        assertEquals(1, proxy.model().throttledWrites());
        assertTrue(direct.getItem(r -> r.tableName(table).key(Map.of("pk", AttributeValue.fromS("day:hot"),
                "sk", AttributeValue.fromS("late")))).hasItem());
    }

    @Test
    void withoutRetriesTheCallerSeesDynamoDbsThrottlingException() {
        DynamoDbClient dynamo = Emulators.clientsFor(proxy.endpoint()).build(DynamoDbClient.builder(),
                c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()));
        for (int i = 0; i < 10; i++) {
            int n = i;
            dynamo.putItem(r -> r.tableName(table).item(item("day:" + n, "s" + n, "job-1")));
        }

        ProvisionedThroughputExceededException e = assertThrows(ProvisionedThroughputExceededException.class,
                () -> dynamo.putItem(r -> r.tableName(table).item(item("day:other", "s", "job-1"))));

        assertTrue(e.isThrottlingException());
        assertEquals(400, e.statusCode());
        assertEquals("IndexWriteKeyRangeThroughputExceeded", e.throttlingReasons().get(0).reason());
        assertTrue(e.throttlingReasons().get(0).resource().endsWith("table/" + table + "/index/by-g"),
                e.throttlingReasons().get(0).resource());
        assertEquals(1, proxy.model().tallies().get(PartitionKey.ofIndex(table, "by-g", "job-1")).throttledWrites());
    }

    private DynamoDbClient client(List<ExecutionInterceptor> interceptors) {
        return Emulators.clientsFor(proxy.endpoint()).build(DynamoDbClient.builder(),
                c -> interceptors.forEach(c::addExecutionInterceptor));
    }

    private static Map<String, AttributeValue> item(String pk, String sk, String g) {
        return Map.of("pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromS(sk), "g", AttributeValue.fromS(g));
    }

    private static AttributeDefinition attribute(String name) {
        return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }

    private static Set<String> intersection(Set<String> a, Set<String> b) {
        Set<String> both = new HashSet<>(a);
        both.retainAll(b);
        return both;
    }
}
