package datalake.bench.limits;

import static datalake.bench.limits.PartitionGate.EQUALS;
import static datalake.bench.limits.PartitionGate.array;
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
import datalake.bench.limits.PartitionModel.WriteCharge;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;

/**
 * The writes of {@link PartitionGate}: what a request shows is what is charged. A put its item (its table
 * key, and each GSI key the item has, by the size of its entry there); an update the bytes it sends, to its
 * table key and to the GSI keys its SET clause assigns; a delete one unit to its table key. The item an
 * update or delete replaces is not read, so the GSI entry it removes is not charged.
 */
final class WriteGate {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final PartitionModel model;
    private final Function<String, Optional<TableKeys>> tables;

    WriteGate(PartitionModel model, Function<String, Optional<TableKeys>> tables) {
        this.model = model;
        this.tables = tables;
    }

    /** A PutItem, UpdateItem or DeleteItem: admitted whole, or refused. */
    Decision singleWrite(String operation, ObjectNode request) {
        Optional<TableKeys> keys = tables.apply(request.path("TableName").asText());
        if (keys.isEmpty()) {
            return Decision.UNCHANGED; // dynalite answers the missing table
        }
        List<WriteCharge> charges = switch (operation) {
            case "PutItem" -> putCharges(keys.get(), request.path("Item"));
            case "UpdateItem" -> updateCharges(keys.get(), request);
            default -> deleteCharges(keys.get(), request.path("Key"));
        };
        return model.write(charges)
                .<Decision>map(refused -> new Refuse(throttled(keys.get(), refused, true)))
                .orElse(Decision.UNCHANGED);
    }

    /** Admitted item by item: the rest come back in UnprocessedItems, or the whole call is refused. */
    Decision batchWrite(ObjectNode request) {
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
}
