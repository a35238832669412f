package datalake.bench.limits;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Decides each DynamoDB request against the {@link PartitionModel}, as DynamoDB answers a hot key: a
 * single-item write or read over its key's limit is refused with a ProvisionedThroughputExceededException
 * (which the SDK retries); a BatchWriteItem is admitted item by item, the admitted items go on and the
 * rest come back in UnprocessedItems, and if none is admitted the whole call is refused; a BatchGetItem
 * likewise with UnprocessedKeys.
 *
 * <p>What each costs: {@link WriteGate}, {@link ReadGate}. Scans, transactions and PartiQL pass unmetered (the
 * project uses none on a hot path).
 */
final class PartitionGate {
    static final String THROTTLED = "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException";
    /** The text DynamoDB sends with a key-range throttle of an on-demand table. */
    static final String MESSAGE = "Throughput exceeds the current capacity of your table or index. DynamoDB is"
            + " automatically scaling your table or index so please try again shortly. If exceptions persist, check"
            + " if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** {@code path = :value} in a SET clause, or {@code #h = :h} in a key condition. */
    static final Pattern EQUALS = Pattern.compile("(#?[A-Za-z0-9_.\\-]+)\\s*=\\s*(:[A-Za-z0-9_]+)");

    private final WriteGate writes;
    private final ReadGate reads;

    PartitionGate(PartitionModel model, Function<String, Optional<TableKeys>> tables) {
        this.writes = new WriteGate(model, tables);
        this.reads = new ReadGate(model, tables);
    }

    /** What to do with one request: {@code operation} is the X-Amz-Target's, e.g. {@code PutItem}. */
    Decision decide(String operation, ObjectNode request) {
        return switch (operation) {
            case "PutItem", "UpdateItem", "DeleteItem" -> writes.singleWrite(operation, request);
            case "BatchWriteItem" -> writes.batchWrite(request);
            case "GetItem" -> reads.getItem(request);
            case "BatchGetItem" -> reads.batchGet(request);
            case "Query" -> reads.query(request);
            default -> Decision.UNCHANGED;
        };
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

    static String name(ObjectNode request, String token) {
        return token.startsWith("#") ? request.path("ExpressionAttributeNames").path(token).asText(token) : token;
    }

    static ArrayNode array(ObjectNode object, String field) {
        return object.has(field) ? (ArrayNode) object.get(field) : object.putArray(field);
    }

    /** Adds our per-table {@code ours} to the answer's {@code field}, table by table. */
    static ObjectNode merge(ObjectNode answer, String field, ObjectNode ours,
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
