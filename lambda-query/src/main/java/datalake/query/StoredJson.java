package datalake.query;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.dynamodb.AttributeJson;
import datalake.dynamodb.StoredRecord;
import datalake.records.Metadata;
import datalake.records.Times;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Stored values as the API answers them: as they are stored, whatever wrote them. Only the times are
 * normalised (to milliseconds, with {@code start_iso} and {@code end_iso} added), since the query read
 * them; every other metadata field is passed through, in the datalake's order and then by name.
 */
final class StoredJson {
    private static final List<String> ORDER = Metadata.FIELDS;
    private static final Set<String> ADDED = Set.of("start_iso", "end_iso");

    /** Reads stored documents exactly: big and fractional numbers as they are written. */
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private StoredJson() {
    }

    /** A stored JSON document when it is an object, else null (missing, not JSON, or another value). */
    static JsonNode parseObject(String json) {
        if (json == null) {
            return null;
        }
        try {
            JsonNode node = MAPPER.readTree(json);
            return node != null && node.isObject() ? node : null;
        } catch (JsonProcessingException | NumberFormatException e) {
            // NumberFormatException: a number Jackson's BigDecimal reader refuses (see MetadataParser)
            return null;
        }
    }

    /** A stored record's metadata map. */
    static void writeMetadata(JsonGenerator g, StoredRecord record) throws IOException {
        Map<String, AttributeValue> stored = record.metadata();
        g.writeStartObject();
        for (String name : ORDER) {
            if (name.equals("start")) {
                g.writeNumberField("start", record.start());
            } else if (name.equals("end")) {
                writeNumberOrNull(g, "end", record.end());
            } else if (stored.containsKey(name)) {
                g.writeFieldName(name);
                AttributeJson.write(g, stored.get(name));
            }
        }
        for (Map.Entry<String, AttributeValue> field : new TreeMap<>(stored).entrySet()) {
            if (!ORDER.contains(field.getKey()) && !ADDED.contains(field.getKey())) {
                g.writeFieldName(field.getKey());
                AttributeJson.write(g, field.getValue());
            }
        }
        g.writeStringField("start_iso", Times.toIso(record.start()));
        g.writeStringField("end_iso", record.end() == null ? null : Times.toIso(record.end()));
        g.writeEndObject();
    }

    /**
     * A file's metadata as its object stores it (the user metadata {@code datalake}, a JSON object):
     * {@code start} and {@code end} normalised as datalake-common reads them, when they are times.
     */
    static void writeUserMetadata(JsonGenerator g, JsonNode stored) throws IOException {
        Long start = time(stored.get("start"));
        Long end = time(stored.get("end"));
        g.writeStartObject();
        for (String name : ORDER) {
            JsonNode value = stored.get(name);
            if (name.equals("start") && start != null) {
                g.writeNumberField(name, start);
            } else if (name.equals("end") && (end != null || value == null)) {
                writeNumberOrNull(g, name, end);
            } else if (value != null) {
                g.writeFieldName(name);
                g.writeTree(value);
            }
        }
        for (Map.Entry<String, JsonNode> field : stored.properties()) {
            if (!ORDER.contains(field.getKey()) && !ADDED.contains(field.getKey())) {
                g.writeFieldName(field.getKey());
                g.writeTree(field.getValue());
            }
        }
        g.writeStringField("start_iso", start == null ? null : Times.toIso(start));
        g.writeStringField("end_iso", end == null ? null : Times.toIso(end));
        g.writeEndObject();
    }

    private static void writeNumberOrNull(JsonGenerator g, String name, Long value) throws IOException {
        if (value == null) {
            g.writeNullField(name);
        } else {
            g.writeNumberField(name, value);
        }
    }

    /** A time as datalake-common reads it from metadata (a number, or text), or null when it is none. */
    static Long time(JsonNode value) {
        OptionalLong ms = value == null || value.isNull() ? OptionalLong.empty()
                : value.isNumber() ? Times.fromNumber(value.asDouble())
                : value.isTextual() ? Times.fromText(value.textValue())
                : OptionalLong.empty();
        return ms.isPresent() ? ms.getAsLong() : null;
    }
}
