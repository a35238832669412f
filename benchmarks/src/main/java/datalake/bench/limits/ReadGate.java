package datalake.bench.limits;

import static datalake.bench.limits.PartitionGate.EQUALS;
import static datalake.bench.limits.PartitionGate.merge;
import static datalake.bench.limits.PartitionGate.name;
import static datalake.bench.limits.PartitionGate.throttled;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import datalake.bench.limits.PartitionGate.Decision;
import datalake.bench.limits.PartitionGate.Forward;
import datalake.bench.limits.PartitionGate.Refuse;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;

/**
 * The reads of {@link PartitionGate}: a read is admitted when its key holds the least it can cost (half a
 * unit eventually consistent, one strongly), which it takes; the rest of its cost, from the size of the
 * items it returns, is charged once answered. A Query reads the key of its key condition, in the table or
 * in the GSI it names (always eventually consistent).
 */
final class ReadGate {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final PartitionModel model;
    private final Function<String, Optional<TableKeys>> tables;

    ReadGate(PartitionModel model, Function<String, Optional<TableKeys>> tables) {
        this.model = model;
        this.tables = tables;
    }

    /** Refused, or forwarded and charged the item's size. */
    Decision getItem(ObjectNode request) {
        Optional<TableKeys> keys = tables.apply(request.path("TableName").asText());
        Optional<PartitionKey> key = keys.flatMap(k -> k.keyOf(request.path("Key")));
        if (key.isEmpty()) {
            return Decision.UNCHANGED;
        }
        return read(keys.get(), key.get(), request.path("ConsistentRead").asBoolean(false),
                answer -> ItemSizes.item(answer.path("Item")));
    }

    /** Refused, or forwarded and charged the size of the items it returns. */
    Decision query(ObjectNode request) {
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
        return read(keys.get(), key.get(), index.isEmpty() && request.path("ConsistentRead").asBoolean(false), answer -> {
            long bytes = 0;
            for (JsonNode item : answer.path("Items")) {
                bytes += ItemSizes.item(item);
            }
            return bytes;
        });
    }

    /**
     * One key's read: refused unless the key holds the least it can cost; else forwarded, and charged once
     * answered what the answer's {@code bytes} cost beyond that least.
     */
    private Decision read(TableKeys keys, PartitionKey key, boolean consistent, ToLongFunction<ObjectNode> bytes) {
        if (!model.startRead(key, least(consistent))) {
            return new Refuse(throttled(keys, key, false));
        }
        return new Forward(Optional.empty(), Optional.of(answer -> {
            model.chargeRead(key, ItemSizes.readUnits(bytes.applyAsLong(answer), consistent) - least(consistent));
            return Optional.empty();
        }));
    }

    /** The least a read costs, taken when it starts: half a unit eventually consistent, one strongly. */
    private static double least(boolean consistent) {
        return ItemSizes.readUnits(0, consistent);
    }

    /** Admitted key by key: the rest come back in UnprocessedKeys, or the whole call is refused. */
    Decision batchGet(ObjectNode request) {
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
                boolean started = partition.map(p -> model.startRead(p, least(consistent))).orElse(true);
                ObjectNode side = started ? admitted : unprocessed;
                if (!side.has(table.getKey())) {
                    // the table's request (ConsistentRead, projection) with the keys of this side only
                    ObjectNode sideRequest = ((ObjectNode) table.getValue()).deepCopy();
                    sideRequest.putArray("Keys");
                    side.set(table.getKey(), sideRequest);
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
                        ItemSizes.readUnits(ItemSizes.item(item), consistent) - least(consistent)));
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
}
