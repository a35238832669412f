package datalake.emulators.limits;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import datalake.emulators.limits.PartitionModel.WriteCharge;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides each DynamoDB request against the {@link PartitionModel}, as DynamoDB answers a hot key: a
 * single-item write or read over its key's limit is refused with a ProvisionedThroughputExceededException
 * (which the SDK retries); a BatchWriteItem is admitted item by item, the admitted items go on and the
 * rest come back in UnprocessedItems, and if none is admitted the whole call is refused; a BatchGetItem
 * likewise with UnprocessedKeys. A read is admitted when its key holds the least it can cost (half a unit
 * eventually consistent, one strongly), which it takes; the rest of its cost, from the size of the items it
 * returns, is charged once answered.
 *
 * <p>What a request shows is what is charged: a put its item (table key and GSI keys); an update the
 * bytes it sends, to its table key and to the GSI keys its SET clause assigns; a delete one unit to its
 * table key. The item an update or delete replaces is not read, so the GSI entry it removes is not
 * charged. Scans, transactions and PartiQL pass unmetered (the project uses none on a hot path).
 */
final class PartitionGate {
    static final String THROTTLED = "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException";
    /** The text DynamoDB sends with a key-range throttle of an on-demand table. */
    static final String MESSAGE = "Throughput exceeds the current capacity of your table or index. DynamoDB is"
            + " automatically scaling your table or index so please try again shortly. If exceptions persist, check"
            + " if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** {@code path = :value} in a SET clause, or {@code #h = :h} in a key condition. */
    private static final Pattern EQUALS = Pattern.compile("(#?[A-Za-z0-9_.\\-]+)\\s*=\\s*(:[A-Za-z0-9_]+)");

    private final PartitionModel model;
    private final Function<String, Optional<TableKeys>> tables;

    PartitionGate(PartitionModel model, Function<String, Optional<TableKeys>> tables) {
        this.model = model;
        this.tables = tables;
    }

    /** What to do with one request: {@code operation} is the X-Amz-Target's, e.g. {@code PutItem}. */
    Decision decide(String operation, ObjectNode request) {
        return switch (operation) {
            case "PutItem" -> singleWrite(request, keys -> putCharges(keys, request.path("Item")));
            case "UpdateItem" -> singleWrite(request, keys -> updateCharges(keys, request));
            case "DeleteItem" -> singleWrite(request, keys -> deleteCharges(keys, request.path("Key")));
            case "BatchWriteItem" -> batchWrite(request);
            case "GetItem" -> getItem(request);
            case "BatchGetItem" -> batchGet(request);
            case "Query" -> query(request);
            default -> Decision.UNCHANGED;
        };
    }

    // ---------------------------------------------------------------- writes

    private Decision singleWrite(ObjectNode request, Function<TableKeys, List<WriteCharge>> charges) {
        Optional<TableKeys> keys = tables.apply(request.path("TableName").asText());
        if (keys.isEmpty()) {
            return Decision.UNCHANGED; // DynamoDB Local answers the missing table
        }
        return model.write(charges.apply(keys.get()))
                .<Decision>map(refused -> new Refuse(throttled(keys.get(), refused, true)))
                .orElse(Decision.UNCHANGED);
    }

    private Decision batchWrite(ObjectNode request) {
        ObjectNode admitted = JSON.createObjectNode();
        ObjectNode unprocessed = JSON.createObjectNode();
        Optional<ObjectNode> refusal = Optional.empty();
        for (Map.Entry<String, JsonNode> table : request.path("RequestItems").properties()) {
            Optional<TableKeys> keys = tables.apply(table.getKey());
            if (keys.isEmpty()) {
                return Decision.UNCHANGED;
            }
            for (JsonNode write : table.getValue()) {
                List<WriteCharge> charges = write.has("PutRequest")
                        ? putCharges(keys.get(), write.path("PutRequest").path("Item"))
                        : deleteCharges(keys.get(), write.path("DeleteRequest").path("Key"));
                Optional<PartitionKey> refused = model.write(charges);
                if (refused.isEmpty()) {
                    array(admitted, table.getKey()).add(write);
                } else {
                    array(unprocessed, table.getKey()).add(write);
                    if (refusal.isEmpty()) {
                        refusal = Optional.of(throttled(keys.get(), refused.get(), true));
                    }
                }
            }
        }
        if (unprocessed.isEmpty()) {
            return Decision.UNCHANGED;
        }
        if (admitted.isEmpty()) {
            return new Refuse(refusal.orElseThrow());
        }
        ObjectNode forwarded = request.deepCopy();
        forwarded.set("RequestItems", admitted);
        return new Forward(Optional.of(forwarded), Optional.of(answer -> Optional.of(merge(answer, "UnprocessedItems",
                unprocessed, (theirs, ours) -> ((ArrayNode) theirs).addAll((ArrayNode) ours)))));
    }

    private static List<WriteCharge> putCharges(TableKeys keys, JsonNode item) {
        List<WriteCharge> charges = new ArrayList<>(1 + keys.indexes().size());
        keys.keyOf(item).ifPresent(k -> charges.add(new WriteCharge(k, ItemSizes.writeUnits(ItemSizes.item(item)))));
        for (TableKeys.Index index : keys.indexes()) {
            index.keyOf(keys.table(), item).ifPresent(k -> charges.add(
                    new WriteCharge(k, ItemSizes.writeUnits(index.entryBytes(keys, item)))));
        }
        return charges;
    }

    /** The bytes an update sends, to its table key and to the GSI keys it assigns. */
    private static List<WriteCharge> updateCharges(TableKeys keys, ObjectNode request) {
        JsonNode key = request.path("Key");
        double units = ItemSizes.writeUnits(ItemSizes.item(key) + ItemSizes.item(request.path("ExpressionAttributeValues")));
        List<WriteCharge> charges = new ArrayList<>(2);
        keys.keyOf(key).ifPresent(k -> charges.add(new WriteCharge(k, units)));
        Map<String, JsonNode> assigned = assignments(request);
        for (TableKeys.Index index : keys.indexes()) {
            Optional.ofNullable(assigned.get(index.hashKey())).flatMap(TableKeys::valueOf).ifPresent(value ->
                    charges.add(new WriteCharge(PartitionKey.ofIndex(keys.table(), index.name(), value), units)));
        }
        return charges;
    }

    private static List<WriteCharge> deleteCharges(TableKeys keys, JsonNode key) {
        return keys.keyOf(key).map(k -> List.of(new WriteCharge(k, 1))).orElse(List.of());
    }

    /** The attributes an UpdateExpression's SET clause gives a value to, with that value. */
    private static Map<String, JsonNode> assignments(ObjectNode request) {
        Map<String, JsonNode> assigned = new HashMap<>();
        Matcher m = EQUALS.matcher(request.path("UpdateExpression").asText(""));
        while (m.find()) {
            assigned.put(name(request, m.group(1)), request.path("ExpressionAttributeValues").path(m.group(2)));
        }
        return assigned;
    }

    // ---------------------------------------------------------------- reads

    private Decision getItem(ObjectNode request) {
        Optional<TableKeys> keys = tables.apply(request.path("TableName").asText());
        Optional<PartitionKey> key = keys.flatMap(k -> k.keyOf(request.path("Key")));
        if (key.isEmpty()) {
            return Decision.UNCHANGED;
        }
        boolean consistent = request.path("ConsistentRead").asBoolean(false);
        if (!model.startRead(key.get(), ItemSizes.readUnits(0, consistent))) {
            return new Refuse(throttled(keys.get(), key.get(), false));
        }
        return new Forward(Optional.empty(), Optional.of(answer -> {
            model.chargeRead(key.get(), ItemSizes.readUnits(ItemSizes.item(answer.path("Item")), consistent)
                    - ItemSizes.readUnits(0, consistent));
            return Optional.empty();
        }));
    }

    private Decision query(ObjectNode request) {
        Optional<TableKeys> keys = tables.apply(request.path("TableName").asText());
        if (keys.isEmpty()) {
            return Decision.UNCHANGED;
        }
        Optional<String> indexName = Optional.ofNullable(request.get("IndexName")).map(JsonNode::asText);
        Optional<TableKeys.Index> index = indexName.flatMap(keys.get()::index);
        if (indexName.isPresent() && index.isEmpty()) {
            return Decision.UNCHANGED;
        }
        String hashKey = index.map(TableKeys.Index::hashKey).orElse(keys.get().hashKey());
        Optional<PartitionKey> key = keyCondition(request, hashKey).map(value -> index
                .map(i -> PartitionKey.ofIndex(keys.get().table(), i.name(), value))
                .orElse(PartitionKey.ofTable(keys.get().table(), value)));
        if (key.isEmpty()) {
            return Decision.UNCHANGED;
        }
        boolean consistent = index.isEmpty() && request.path("ConsistentRead").asBoolean(false);
        if (!model.startRead(key.get(), ItemSizes.readUnits(0, consistent))) {
            return new Refuse(throttled(keys.get(), key.get(), false));
        }
        return new Forward(Optional.empty(), Optional.of(answer -> {
            long bytes = 0;
            for (JsonNode item : answer.path("Items")) {
                bytes += ItemSizes.item(item);
            }
            model.chargeRead(key.get(), ItemSizes.readUnits(bytes, consistent) - ItemSizes.readUnits(0, consistent));
            return Optional.empty();
        }));
    }

    private Decision batchGet(ObjectNode request) {
        ObjectNode admitted = JSON.createObjectNode();
        ObjectNode unprocessed = JSON.createObjectNode();
        Map<String, TableKeys> tableKeys = new HashMap<>();
        Optional<ObjectNode> refusal = Optional.empty();
        for (Map.Entry<String, JsonNode> table : request.path("RequestItems").properties()) {
            Optional<TableKeys> keys = tables.apply(table.getKey());
            if (keys.isEmpty()) {
                return Decision.UNCHANGED;
            }
            tableKeys.put(table.getKey(), keys.get());
            boolean consistent = table.getValue().path("ConsistentRead").asBoolean(false);
            for (JsonNode key : table.getValue().path("Keys")) {
                Optional<PartitionKey> partition = keys.get().keyOf(key);
                boolean started = partition.map(p -> model.startRead(p, ItemSizes.readUnits(0, consistent))).orElse(true);
                ObjectNode side = started ? admitted : unprocessed;
                if (!side.has(table.getKey())) {
                    ObjectNode request1 = ((ObjectNode) table.getValue()).deepCopy();
                    request1.putArray("Keys");
                    side.set(table.getKey(), request1);
                }
                ((ArrayNode) side.path(table.getKey()).path("Keys")).add(key);
                if (!started && refusal.isEmpty()) {
                    refusal = Optional.of(throttled(keys.get(), partition.orElseThrow(), false));
                }
            }
        }
        if (admitted.isEmpty() && !unprocessed.isEmpty()) {
            return new Refuse(refusal.orElseThrow());
        }
        ObjectNode forwarded = request.deepCopy();
        forwarded.set("RequestItems", admitted);
        return new Forward(unprocessed.isEmpty() ? Optional.empty() : Optional.of(forwarded), Optional.of(answer -> {
            chargeBatchGet(answer, admitted, tableKeys);
            return unprocessed.isEmpty() ? Optional.empty() : Optional.of(merge(answer, "UnprocessedKeys", unprocessed,
                    (theirs, ours) -> ((ArrayNode) theirs.path("Keys")).addAll((ArrayNode) ours.path("Keys"))));
        }));
    }

    /** Each item read is charged to its key what it cost beyond the least its read took at the start. */
    private void chargeBatchGet(ObjectNode answer, ObjectNode admitted, Map<String, TableKeys> tableKeys) {
        for (Map.Entry<String, JsonNode> table : admitted.properties()) {
            TableKeys keys = tableKeys.get(table.getKey());
            boolean consistent = table.getValue().path("ConsistentRead").asBoolean(false);
            for (JsonNode item : answer.path("Responses").path(table.getKey())) {
                keys.keyOf(item).ifPresent(key -> model.chargeRead(key,
                        ItemSizes.readUnits(ItemSizes.item(item), consistent) - ItemSizes.readUnits(0, consistent)));
            }
        }
    }

    /** The value a Query's key condition gives the partition key {@code hashKey}. */
    private static Optional<String> keyCondition(ObjectNode request, String hashKey) {
        Matcher m = EQUALS.matcher(request.path("KeyConditionExpression").asText(""));
        while (m.find()) {
            if (name(request, m.group(1)).equals(hashKey)) {
                return TableKeys.valueOf(request.path("ExpressionAttributeValues").get(m.group(2)));
            }
        }
        JsonNode legacy = request.path("KeyConditions").path(hashKey);
        if ("EQ".equals(legacy.path("ComparisonOperator").asText())) {
            return TableKeys.valueOf(legacy.path("AttributeValueList").path(0));
        }
        return Optional.empty();
    }

    // ---------------------------------------------------------------- the wire

    /** The body of DynamoDB's answer to a request over a key's limit (HTTP 400). */
    static ObjectNode throttled(TableKeys keys, PartitionKey key, boolean write) {
        ObjectNode error = JSON.createObjectNode();
        error.put("__type", THROTTLED);
        error.put("message", MESSAGE);
        ObjectNode reason = error.putArray("ThrottlingReasons").addObject();
        reason.put("reason", (key.isIndex() ? "Index" : "Table") + (write ? "Write" : "Read") + "KeyRangeThroughputExceeded");
        reason.put("resource", keys.arnOf(key));
        return error;
    }

    private static String name(ObjectNode request, String token) {
        return token.startsWith("#") ? request.path("ExpressionAttributeNames").path(token).asText(token) : token;
    }

    private static ArrayNode array(ObjectNode object, String field) {
        return object.has(field) ? (ArrayNode) object.get(field) : object.putArray(field);
    }

    /** Adds our per-table {@code ours} to the answer's {@code field}, table by table. */
    private static ObjectNode merge(ObjectNode answer, String field, ObjectNode ours,
            java.util.function.BiConsumer<JsonNode, JsonNode> append) {
        JsonNode existing = answer.get(field);
        ObjectNode theirs = existing instanceof ObjectNode o ? o : answer.putObject(field);
        for (Map.Entry<String, JsonNode> table : ours.properties()) {
            if (theirs.has(table.getKey())) {
                append.accept(theirs.get(table.getKey()), table.getValue());
            } else {
                theirs.set(table.getKey(), table.getValue());
            }
        }
        return answer;
    }

    /** What the proxy does with a request. */
    sealed interface Decision permits Refuse, Forward {
        /** Forward the request as it came, and the answer as it comes. */
        Forward UNCHANGED = new Forward(Optional.empty(), Optional.empty());
    }

    /** Answer HTTP 400 with this body; DynamoDB never sees the request. */
    record Refuse(ObjectNode error) implements Decision {
    }

    /**
     * Forward the request (rewritten, when given); on a successful answer, call {@code answer}, which may
     * rewrite it.
     */
    record Forward(Optional<ObjectNode> request, Optional<Answer> answer) implements Decision {
    }

    /** What happens to a successful answer: charged reads, merged unprocessed entries. */
    @FunctionalInterface
    interface Answer {
        /** The answer rewritten, or empty to pass it on as it is. */
        Optional<ObjectNode> read(ObjectNode answer);
    }
}
