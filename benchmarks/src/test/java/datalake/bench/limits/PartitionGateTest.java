package datalake.bench.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The gate on requests in their wire form, with DynamoDB's limits divided by 100 (10 write units and 30
 * read units a second per key, one second of burst) and a clock the test moves.
 */
class PartitionGateTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long SECOND = 1_000_000_000L;
    private static final String ARN = "arn:aws:dynamodb:ddblocal:000000000000:table/t";
    /** Table t: partition key pk, sort key sk; GSI by-g on g (and sk), every attribute projected. */
    private static final TableKeys T = new TableKeys("t", ARN, "pk", Optional.of("sk"),
            List.of(new TableKeys.Index("by-g", ARN + "/index/by-g", "g", Optional.of("sk"), true, Set.of())));

    private final AtomicLong clock = new AtomicLong(7 * SECOND);
    private final PartitionModel model = new PartitionModel(PartitionLimits.scaledDown(100), clock::get);
    private final PartitionGate gate = new PartitionGate(model, name -> name.equals("t") ? Optional.of(T) : Optional.empty());

    @Test
    void aBatchOverItsKeysLimitForwardsWhatFitsAndReturnsTheRestUnprocessed() throws Exception {
        ObjectNode batch = batchWrite(items(25, i -> "day:hot", i -> "g" + i));

        PartitionGate.Forward forward = assertInstanceOf(PartitionGate.Forward.class, gate.decide("BatchWriteItem", batch));

        assertEquals(ids(0, 10), ids(forward.request().orElseThrow().path("RequestItems").path("t")));
        ObjectNode answer = forward.answer().orElseThrow().read(json("{\"UnprocessedItems\":{}}")).orElseThrow();
        assertEquals(ids(10, 25), ids(answer.path("UnprocessedItems").path("t")));
        KeyTally hot = model.tallies().get(PartitionKey.ofTable("t", "day:hot"));
        assertEquals(10, hot.writes());
        assertEquals(15, hot.throttledWrites());
        assertEquals(15, model.throttledWrites());
        assertEquals(Map.of(0L, 10L), hot.writesBySecond());
    }

    @Test
    void theKeyRefillsAtItsRateAndOtherKeysAreUntouched() throws Exception {
        gate.decide("BatchWriteItem", batchWrite(items(25, i -> "day:hot", i -> "g" + i)));

        clock.addAndGet(SECOND / 2);
        PartitionGate.Forward forward = assertInstanceOf(PartitionGate.Forward.class,
                gate.decide("BatchWriteItem", batchWrite(items(10, i -> i % 2 == 0 ? "day:hot" : "day:cold", i -> "h" + i))));

        // five units refilled in half a second: all five hot items fit, and the cold key has its own bucket
        assertEquals(Optional.empty(), forward.request());
        assertEquals(Map.of(0L, 15L), model.tallies().get(PartitionKey.ofTable("t", "day:hot")).writesBySecond());
        assertTrue(gate.decide("BatchWriteItem", batchWrite(items(1, i -> "day:hot", i -> "x"))) instanceof PartitionGate.Refuse);
    }

    @Test
    void aBatchOfWhichNothingFitsIsRefusedAsAWholeAsDynamoDbAnswers() throws Exception {
        gate.decide("BatchWriteItem", batchWrite(items(10, i -> "day:hot", i -> "g" + i)));

        PartitionGate.Refuse refuse = assertInstanceOf(PartitionGate.Refuse.class,
                gate.decide("BatchWriteItem", batchWrite(items(3, i -> "day:hot", i -> "k" + i))));

        assertEquals("com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException", refuse.error().path("__type").asText());
        assertEquals("TableWriteKeyRangeThroughputExceeded", refuse.error().path("ThrottlingReasons").path(0).path("reason").asText());
        assertEquals(ARN, refuse.error().path("ThrottlingReasons").path(0).path("resource").asText());
        assertTrue(refuse.error().path("message").asText().startsWith("Throughput exceeds the current capacity"));
    }

    @Test
    void aHotGsiKeyThrottlesTheTableWritesThatFeedIt() throws Exception {
        // every item on a key of its own in the table, all on one GSI key
        PartitionGate.Forward forward = assertInstanceOf(PartitionGate.Forward.class,
                gate.decide("BatchWriteItem", batchWrite(items(12, i -> "day:" + i, i -> "job-1"))));

        assertEquals(ids(0, 10), ids(forward.request().orElseThrow().path("RequestItems").path("t")));
        assertEquals(2, model.tallies().get(PartitionKey.ofIndex("t", "by-g", "job-1")).throttledWrites());
        assertEquals(0, model.tallies().get(PartitionKey.ofTable("t", "day:11")).writes(), "a refused item charges no table key");
        PartitionGate.Refuse refuse = assertInstanceOf(PartitionGate.Refuse.class, gate.decide("PutItem",
                put(item("day:99", "job-1", "z", 10))));
        assertEquals("IndexWriteKeyRangeThroughputExceeded", refuse.error().path("ThrottlingReasons").path(0).path("reason").asText());
        assertEquals(ARN + "/index/by-g", refuse.error().path("ThrottlingReasons").path(0).path("resource").asText());
    }

    @Test
    void anItemOverOneKilobyteTakesAUnitPerKilobyte() throws Exception {
        for (int i = 0; i < 5; i++) {
            assertInstanceOf(PartitionGate.Forward.class, gate.decide("PutItem", put(item("day:big", "g" + i, "s" + i, 1500))));
        }

        assertInstanceOf(PartitionGate.Refuse.class, gate.decide("PutItem", put(item("day:big", "g9", "s9", 10))));
        assertEquals(10, model.tallies().get(PartitionKey.ofTable("t", "day:big")).writeUnits(), 1e-9);
    }

    @Test
    void anUpdateIsChargedToItsKeyAndToTheGsiKeyItAssigns() throws Exception {
        ObjectNode update = json("{\"TableName\":\"t\",\"Key\":{\"pk\":{\"S\":\"obj\"},\"sk\":{\"S\":\"o\"}},"
                + "\"UpdateExpression\":\"SET #a0 = :v0, size = :v1\",\"ExpressionAttributeNames\":{\"#a0\":\"g\"},"
                + "\"ExpressionAttributeValues\":{\":v0\":{\"S\":\"job-7\"},\":v1\":{\"N\":\"3\"}}}");
        for (int i = 0; i < 10; i++) {
            assertInstanceOf(PartitionGate.Forward.class, gate.decide("UpdateItem", update));
        }

        assertInstanceOf(PartitionGate.Refuse.class, gate.decide("UpdateItem", update));
        assertEquals(10, model.tallies().get(PartitionKey.ofIndex("t", "by-g", "job-7")).writes());
        assertInstanceOf(PartitionGate.Refuse.class, gate.decide("DeleteItem",
                json("{\"TableName\":\"t\",\"Key\":{\"pk\":{\"S\":\"obj\"},\"sk\":{\"S\":\"o\"}}}")));
    }

    @Test
    void aQueryIsAdmittedWhileItsKeyHoldsCapacityAndChargedWhatItReturns() throws Exception {
        ObjectNode query = json("{\"TableName\":\"t\",\"KeyConditionExpression\":\"#h = :h AND begins_with(#r, :r)\","
                + "\"ExpressionAttributeNames\":{\"#h\":\"pk\",\"#r\":\"sk\"},"
                + "\"ExpressionAttributeValues\":{\":h\":{\"S\":\"day:read\"},\":r\":{\"S\":\"a\"}}}");
        ArrayNode items = JSON.createArrayNode();
        for (int i = 0; i < 20; i++) {
            items.add(item("day:read", "g" + i, "s" + i, 3000)); // 60 KB: 15 units, 7.5 eventually consistent
        }
        ObjectNode answer = JSON.createObjectNode().set("Items", items);

        for (int i = 0; i < 4; i++) {
            PartitionGate.Forward forward = assertInstanceOf(PartitionGate.Forward.class, gate.decide("Query", query));
            assertEquals(Optional.empty(), forward.answer().orElseThrow().read(answer));
        }

        // 30 units read: the bucket is empty and the next Query waits
        PartitionGate.Refuse refuse = assertInstanceOf(PartitionGate.Refuse.class, gate.decide("Query", query));
        assertEquals("TableReadKeyRangeThroughputExceeded", refuse.error().path("ThrottlingReasons").path(0).path("reason").asText());
        KeyTally read = model.tallies().get(PartitionKey.ofTable("t", "day:read"));
        assertEquals(4, read.reads());
        assertEquals(30, read.readUnits(), 1e-9);
        assertEquals(1, read.throttledReads());
    }

    @Test
    void aGsiQueryReadsTheIndexKeyEventuallyConsistently() throws Exception {
        ObjectNode query = json("{\"TableName\":\"t\",\"IndexName\":\"by-g\",\"ConsistentRead\":false,"
                + "\"KeyConditionExpression\":\"g = :w\",\"ExpressionAttributeValues\":{\":w\":{\"S\":\"job-3\"}}}");

        PartitionGate.Forward forward = assertInstanceOf(PartitionGate.Forward.class, gate.decide("Query", query));
        forward.answer().orElseThrow().read(json("{\"Items\":[]}"));

        assertEquals(0.5, model.tallies().get(PartitionKey.ofIndex("t", "by-g", "job-3")).readUnits(), 1e-9);
    }

    @Test
    void aBatchGetReturnsTheKeysOverTheLimitUnprocessed() throws Exception {
        StringBuilder keys = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            keys.append(i == 0 ? "" : ",").append("{\"pk\":{\"S\":\"day:get\"},\"sk\":{\"S\":\"s").append(i).append("\"}}");
        }
        ObjectNode batch = json("{\"RequestItems\":{\"t\":{\"ConsistentRead\":true,\"Keys\":[" + keys + "]}}}");

        PartitionGate.Forward forward = assertInstanceOf(PartitionGate.Forward.class, gate.decide("BatchGetItem", batch));

        JsonNode forwarded = forward.request().orElseThrow().path("RequestItems").path("t");
        assertEquals(30, forwarded.path("Keys").size());
        assertTrue(forwarded.path("ConsistentRead").asBoolean());
        ObjectNode answer = forward.answer().orElseThrow().read(json("{\"Responses\":{\"t\":[]},\"UnprocessedKeys\":{}}")).orElseThrow();
        assertEquals(10, answer.path("UnprocessedKeys").path("t").path("Keys").size());
        assertTrue(answer.path("UnprocessedKeys").path("t").path("ConsistentRead").asBoolean());
        assertEquals(30, model.tallies().get(PartitionKey.ofTable("t", "day:get")).readUnits(), 1e-9);
    }

    @Test
    void withoutLimitsEverythingPassesAndIsCounted() throws Exception {
        PartitionModel unlimited = new PartitionModel(PartitionLimits.unlimited(), clock::get);
        PartitionGate open = new PartitionGate(unlimited, name -> Optional.of(T));

        for (int second = 0; second < 3; second++) {
            assertEquals(PartitionGate.Decision.UNCHANGED, open.decide("BatchWriteItem",
                    batchWrite(items(25, i -> "day:hot", i -> "g" + i))));
            clock.addAndGet(SECOND);
        }

        assertEquals(Map.of(0L, 25L, 1L, 25L, 2L, 25L), unlimited.tallies().get(PartitionKey.ofTable("t", "day:hot")).writesBySecond());
        assertEquals(0, unlimited.throttledWrites());
    }

    @Test
    void anUnknownTableOrOperationPassesUnmetered() throws Exception {
        assertEquals(PartitionGate.Decision.UNCHANGED, gate.decide("PutItem",
                json("{\"TableName\":\"other\",\"Item\":{\"pk\":{\"S\":\"a\"}}}")));
        assertEquals(PartitionGate.Decision.UNCHANGED, gate.decide("Scan", json("{\"TableName\":\"t\"}")));
        assertEquals(Map.of(), model.tallies());
    }

    // ---------------------------------------------------------------- requests as the SDK sends them

    private static ObjectNode item(String pk, String g, String sk, int padding) {
        ObjectNode item = JSON.createObjectNode();
        item.putObject("pk").put("S", pk);
        item.putObject("sk").put("S", sk);
        item.putObject("g").put("S", g);
        item.putObject("p").put("S", "x".repeat(padding));
        return item;
    }

    private static List<ObjectNode> items(int n, java.util.function.IntFunction<String> pk, java.util.function.IntFunction<String> g) {
        List<ObjectNode> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            items.add(item(pk.apply(i), g.apply(i), "id" + i, 10));
        }
        return items;
    }

    private static ObjectNode batchWrite(List<ObjectNode> items) {
        ObjectNode request = JSON.createObjectNode();
        ArrayNode writes = request.putObject("RequestItems").putArray("t");
        items.forEach(item -> writes.addObject().putObject("PutRequest").set("Item", item));
        return request;
    }

    private static ObjectNode put(ObjectNode item) {
        ObjectNode request = JSON.createObjectNode();
        request.put("TableName", "t");
        request.set("Item", item);
        return request;
    }

    private static List<String> ids(int from, int to) {
        List<String> ids = new ArrayList<>();
        for (int i = from; i < to; i++) {
            ids.add("id" + i);
        }
        return ids;
    }

    private static List<String> ids(JsonNode writes) {
        List<String> ids = new ArrayList<>();
        writes.forEach(w -> ids.add(w.path("PutRequest").path("Item").path("sk").path("S").asText()));
        return ids;
    }

    private static ObjectNode json(String text) throws Exception {
        return (ObjectNode) JSON.readTree(text);
    }
}
