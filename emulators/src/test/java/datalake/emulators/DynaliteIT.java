package datalake.emulators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * dynalite as this project uses it: its life as a process, the two defects of dynalite 4.0.0 that
 * {@code dynalite.js} fixes (each test here fails on dynalite as published), and the DynamoDB limits and
 * orders the rest of the suite relies on the emulator for (the 400 KB item, the batch sizes, the 1 MB
 * page, keys in UTF-8 byte order), so that a new dynalite cannot weaken them unnoticed.
 */
class DynaliteIT {
    private static Dynalite dynalite;
    private static DynamoDbClient dynamo;

    @BeforeAll
    static void start() {
        dynalite = new Dynalite();
        dynalite.start();
        dynamo = Emulators.clientsFor(dynalite.endpoint()).build(DynamoDbClient.builder(),
                c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()));
    }

    @AfterAll
    static void stop() {
        dynamo.close();
        dynalite.close();
    }

    @Test
    void itStopsAndStartsAgainOnTheSamePortWithEmptyTables() {
        try (Dynalite own = new Dynalite()) {
            own.start();
            int port = own.port();
            DynamoDbClient client = Emulators.clientsFor(own.endpoint()).build(DynamoDbClient.builder(),
                    c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()));
            client.createTable(records("latest"));
            Dynalite.awaitActive(client, "latest");
            client.putItem(r -> r.tableName("latest").item(item("syslog", "web01")));

            own.stop();
            assertFalse(own.isRunning());
            assertThrows(SdkClientException.class, client::listTables);

            own.start();
            assertTrue(own.isRunning());
            assertEquals(port, own.port());
            assertThrows(ResourceNotFoundException.class, () -> client.describeTable(r -> r.tableName("latest")));
            client.close();
        }
    }

    @Test
    void aPortAnotherProgramAnswersOnIsRefusedInsteadOfTakenForDynalite() throws Exception {
        // given another program answering HTTP on a port (python3 -m http.server on 8000, say)
        HttpServer other = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        other.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        other.start();
        try (Dynalite taken = new Dynalite(other.getAddress().getPort())) {
            // when dynalite is started on that port
            EmulatorStartException e = assertThrows(EmulatorStartException.class, taken::start);

            // then it says so, rather than starting "ready" with the other program as its endpoint
            assertEquals("port " + other.getAddress().getPort() + " on 127.0.0.1 is already in use by another process,"
                    + " so dynalite cannot serve there; stop that process, or give dynalite another port.", e.getMessage());
            assertFalse(taken.isRunning());
        } finally {
            other.stop(0);
        }
    }

    @Test
    void aMissingInstallSaysHowToInstallIt(@TempDir Path empty) {
        Dynalite missing = new Dynalite(empty, 0, Duration.ofSeconds(5));

        EmulatorNotInstalledException e = assertThrows(EmulatorNotInstalledException.class, missing::start);

        assertEquals("dynalite not found in " + empty.resolve("node_modules")
                + "; run scripts/lib/dynalite.sh (scripts/test.sh and scripts/local.sh do it) to install it.", e.getMessage());
    }

    // ---- the launcher's fixes ----

    @Test
    void timeToLiveIsKeptAndAnsweredPerTable() {
        create("ttl");
        assertEquals(TimeToLiveStatus.DISABLED, ttlStatus("ttl"));

        dynamo.updateTimeToLive(r -> r.tableName("ttl").timeToLiveSpecification(t -> t.attributeName("expires_at").enabled(true)));

        var description = dynamo.describeTimeToLive(r -> r.tableName("ttl")).timeToLiveDescription();
        assertEquals(TimeToLiveStatus.ENABLED, description.timeToLiveStatus());
        assertEquals("expires_at", description.attributeName());
        assertEquals("ValidationException", code(() -> dynamo.updateTimeToLive(r -> r.tableName("ttl")
                .timeToLiveSpecification(t -> t.attributeName("expires_at").enabled(true)))));
        assertThrows(ResourceNotFoundException.class, () -> dynamo.describeTimeToLive(r -> r.tableName("no-such-table")));

        // A table made again under the same name starts without TTL, as in DynamoDB.
        dynamo.deleteTable(r -> r.tableName("ttl"));
        create("ttl");
        assertEquals(TimeToLiveStatus.DISABLED, ttlStatus("ttl"));
    }

    @Test
    void keysAreMeasuredInUtf8Bytes() {
        create("keys");
        String twoByteRange1024 = "é".repeat(512);
        String twoByteRange1026 = "é".repeat(513);

        dynamo.putItem(r -> r.tableName("keys").item(item("h", twoByteRange1024)));

        assertEquals("ValidationException", code(() -> dynamo.putItem(r -> r.tableName("keys").item(item("h", twoByteRange1026)))));
        assertEquals("ValidationException", code(() -> dynamo.batchWriteItem(r -> r.requestItems(Map.of("keys",
                List.of(put(item("h", twoByteRange1026))))))));
        assertEquals("ValidationException", code(() -> dynamo.getItem(r -> r.tableName("keys")
                .key(Map.of("time_index_key", s("h"), "range_key", s(twoByteRange1026))))));
        assertEquals("ValidationException", code(() -> dynamo.putItem(r -> r.tableName("keys")
                .item(item("€".repeat(683), "r"))))); // 2,049 bytes of hash key
    }

    @Test
    void indexKeysAreMeasuredToo() {
        create("gsi");
        Map<String, AttributeValue> longWorkId = new java.util.HashMap<>(item("h", "r"));
        longWorkId.put("work_id_index_key", s("w".repeat(2049)));
        Map<String, AttributeValue> fitting = new java.util.HashMap<>(item("h", "r2"));
        fitting.put("work_id_index_key", s("w".repeat(2048)));

        dynamo.putItem(r -> r.tableName("gsi").item(fitting));

        assertEquals("ValidationException", code(() -> dynamo.putItem(r -> r.tableName("gsi").item(longWorkId))));
        assertEquals("ValidationException", code(() -> dynamo.batchWriteItem(r -> r.requestItems(Map.of("gsi",
                List.of(put(longWorkId)))))));
    }

    // ---- what the suite relies on dynalite for, as it is ----

    @Test
    void itemsOver400KbAreRefusedWhateverTheCall() {
        create("sizes");
        Map<String, AttributeValue> fits = new java.util.HashMap<>(item("h", "fits"));
        fits.put("blob", s("x".repeat(400 * 1024 - 100)));
        Map<String, AttributeValue> over = new java.util.HashMap<>(item("h", "over"));
        over.put("blob", s("x".repeat(400 * 1024 + 1)));

        dynamo.putItem(r -> r.tableName("sizes").item(fits));

        assertEquals("ValidationException", code(() -> dynamo.putItem(r -> r.tableName("sizes").item(over))));
        assertEquals("ValidationException", code(() -> dynamo.batchWriteItem(r -> r.requestItems(Map.of("sizes",
                List.of(put(over)))))));
        assertEquals("ValidationException", code(() -> dynamo.updateItem(r -> r.tableName("sizes")
                .key(Map.of("time_index_key", s("h"), "range_key", s("fits")))
                .updateExpression("SET more = :m").expressionAttributeValues(Map.of(":m", s("y".repeat(200)))))));
    }

    @Test
    void batchesHoldAt25WritesAnd100Reads() {
        create("batches");
        List<WriteRequest> writes = IntStream.range(0, 26).mapToObj(i -> put(item("h", "r" + i))).toList();

        dynamo.batchWriteItem(r -> r.requestItems(Map.of("batches", writes.subList(0, 25))));

        assertEquals("ValidationException", code(() -> dynamo.batchWriteItem(r -> r.requestItems(Map.of("batches", writes)))));
        List<Map<String, AttributeValue>> keys = IntStream.range(0, 101)
                .mapToObj(i -> Map.of("time_index_key", s("h"), "range_key", s("r" + i))).toList();
        assertEquals(25, dynamo.batchGetItem(r -> r.requestItems(Map.of("batches",
                KeysAndAttributes.builder().keys(keys.subList(0, 100)).build()))).responses().get("batches").size());
        assertEquals("ValidationException", code(() -> dynamo.batchGetItem(r -> r.requestItems(Map.of("batches",
                KeysAndAttributes.builder().keys(keys).build())))));
    }

    @Test
    void aQueryPageStopsAtOneMegabyte() {
        create("pages");
        for (int i = 0; i < 15; i++) {
            Map<String, AttributeValue> item = new java.util.HashMap<>(item("h", String.format("p%02d", i)));
            item.put("blob", s("x".repeat(100 * 1024)));
            dynamo.putItem(r -> r.tableName("pages").item(item));
        }

        QueryResponse page = dynamo.query(r -> r.tableName("pages").keyConditionExpression("time_index_key = :h")
                .expressionAttributeValues(Map.of(":h", s("h"))));

        assertTrue(page.count() >= 10 && page.count() <= 11, page.count() + " items of 100 KB");
        assertTrue(page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty());
    }

    @Test
    void rangeKeysComeInUtf8ByteOrderNotJavasUtf16Order() {
        create("order");
        // U+FF61 sorts after U+1F600's surrogates in UTF-16, before U+1F600 in UTF-8.
        List<String> keys = List.of("a\uFF61", "a\uD83D\uDE00", "a\uE000", "a~", "a\u00E9");
        keys.forEach(k -> dynamo.putItem(r -> r.tableName("order").item(item("h", k))));

        List<String> read = dynamo.query(r -> r.tableName("order").keyConditionExpression("time_index_key = :h")
                .expressionAttributeValues(Map.of(":h", s("h")))).items().stream().map(i -> i.get("range_key").s()).toList();

        List<String> utf8Order = new ArrayList<>(keys);
        utf8Order.sort(Comparator.comparing(k -> k.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                java.util.Arrays::compareUnsigned));
        assertEquals(utf8Order, read);
        assertEquals(List.of("a~", "a\u00E9", "a\uE000", "a\uFF61", "a\uD83D\uDE00"), read);
    }

    private static TimeToLiveStatus ttlStatus(String table) {
        return dynamo.describeTimeToLive(r -> r.tableName(table)).timeToLiveDescription().timeToLiveStatus();
    }

    /** The error code of what {@code call} throws. */
    private static String code(Runnable call) {
        return assertThrows(DynamoDbException.class, call::run).awsErrorDetails().errorCode();
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static Map<String, AttributeValue> item(String hash, String range) {
        return Map.of("time_index_key", s(hash), "range_key", s(range));
    }

    private static WriteRequest put(Map<String, AttributeValue> item) {
        return WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build();
    }

    /** A table keyed like the records table, with its work-id-index. */
    private static void create(String table) {
        dynamo.createTable(records(table));
        Dynalite.awaitActive(dynamo, table);
    }

    private static CreateTableRequest records(String name) {
        return CreateTableRequest.builder().tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        AttributeDefinition.builder().attributeName("time_index_key").attributeType(ScalarAttributeType.S).build(),
                        AttributeDefinition.builder().attributeName("range_key").attributeType(ScalarAttributeType.S).build(),
                        AttributeDefinition.builder().attributeName("work_id_index_key").attributeType(ScalarAttributeType.S).build())
                .keySchema(KeySchemaElement.builder().attributeName("time_index_key").keyType(KeyType.HASH).build(),
                        KeySchemaElement.builder().attributeName("range_key").keyType(KeyType.RANGE).build())
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("work-id-index")
                        .keySchema(KeySchemaElement.builder().attributeName("work_id_index_key").keyType(KeyType.HASH).build(),
                                KeySchemaElement.builder().attributeName("range_key").keyType(KeyType.RANGE).build())
                        .projection(p -> p.projectionType(ProjectionType.ALL)).build())
                .build();
    }
}
