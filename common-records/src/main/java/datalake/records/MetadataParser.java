package datalake.records;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Reads metadata from untrusted JSON (the S3 user metadata {@code datalake}) and applies every
 * rule of version 0. Other fields are kept, in their order, as {@link Metadata#extras()}: datalake-common's
 * Metadata is a dict that keeps them, and the Python datalake stores and serves them; one DynamoDB cannot
 * store is refused (see {@link MetadataExtras}).
 */
public final class MetadataParser {
    /** One JSON document and nothing after it, as Python's json.loads reads the header. */
    private static final ObjectReader ONE_DOCUMENT = DatalakeJson.MAPPER.reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private MetadataParser() {
    }

    /** Parses and validates metadata JSON; {@link InvalidMetadataException} names the first broken rule. */
    public static Metadata parse(String json) {
        if (json == null || json.isBlank()) {
            throw new InvalidMetadataException("metadata", "the datalake metadata is missing or empty.");
        }
        JsonNode node;
        try {
            node = ONE_DOCUMENT.readTree(json);
        } catch (JsonProcessingException | NumberFormatException e) {
            // Jackson reads numbers as BigDecimal here and refuses some (e.g. 14E268000000000) with a
            // NumberFormatException rather than a JsonProcessingException: both are bad input, as is
            // anything after the document (two headers run together).
            throw new InvalidMetadataException("metadata", "the datalake metadata is not valid JSON.");
        }
        return fromJson(node);
    }

    /** Validates metadata from a client, read as a JSON tree (numbers up to 1e11 are seconds). */
    public static Metadata fromJson(JsonNode node) {
        return fromJson(node, false);
    }

    /**
     * Reads metadata in its stored, normalised form (as {@link DatalakeJson} writes it): times are
     * milliseconds as they stand, so that early times are not taken for seconds a second time.
     */
    static Metadata fromNormalisedJson(JsonNode node) {
        return fromJson(node, true);
    }

    private static Metadata fromJson(JsonNode node, boolean normalised) {
        if (node == null || !node.isObject()) {
            throw new InvalidMetadataException("metadata", "the datalake metadata must be a JSON object.");
        }
        // datalake-common takes a missing version for 0 (and refuses a null one).
        JsonNode version = node.get("version");
        if (version != null && (!version.isNumber() || version.asDouble() != Metadata.VERSION)) {
            throw new InvalidMetadataException("version", "metadata field 'version' must be 0.");
        }
        JsonNode start = node.get("start");
        if (start == null || start.isNull()) {
            throw required("start");
        }
        long startMs = time("start", start, normalised);
        JsonNode end = node.get("end");
        Long endMs = end == null || end.isNull() ? null : time("end", end, normalised);
        if (!node.has("work_id")) {
            throw new InvalidMetadataException("work_id",
                    "metadata field 'work_id' is required; it may be null.");
        }
        JsonNode workId = node.get("work_id");
        return new Metadata(
                startMs,
                endMs,
                text(node, "path"),
                workId.isNull() ? null : textValue("work_id", workId),
                text(node, "where"),
                text(node, "what"),
                text(node, "id"),
                text(node, "hash"),
                extras(node));
    }

    /** The fields beyond version 0's, in the document's order. */
    private static Map<String, JsonNode> extras(JsonNode node) {
        Map<String, JsonNode> extras = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            if (!Metadata.FIELDS.contains(field.getKey())) {
                extras.put(field.getKey(), field.getValue());
            }
        }
        return extras;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw required(field);
        }
        return textValue(field, value);
    }

    private static String textValue(String field, JsonNode value) {
        if (value.getNodeType() != JsonNodeType.STRING) {
            throw new InvalidMetadataException(field, "metadata field '" + field + "' must be a string.");
        }
        return value.textValue();
    }

    private static long time(String field, JsonNode value, boolean normalised) {
        if (normalised && value.isIntegralNumber() && value.canConvertToLong()) {
            return value.longValue();
        }
        if (value.isNumber()) {
            OptionalLong ms = Times.fromNumber(value.asDouble());
            if (ms.isPresent()) {
                return ms.getAsLong();
            }
            throw new InvalidMetadataException(field, "metadata field '" + field
                    + "' must be a time between the years 1 and 9999.");
        }
        if (value.isTextual()) {
            // datalake-common reads a number given as text as that number ("1426809920345").
            OptionalLong ms = Times.fromText(value.textValue());
            if (ms.isPresent()) {
                return ms.getAsLong();
            }
        }
        throw new InvalidMetadataException(field, "metadata field '" + field
                + "' must be milliseconds or seconds since the epoch, or an ISO-8601 time.");
    }

    private static InvalidMetadataException required(String field) {
        return new InvalidMetadataException(field, "metadata field '" + field + "' is required and must not be null.");
    }
}
