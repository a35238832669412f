package datalake.records;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.records.Keys.RangeKey;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.Keys.WorkIdIndexKey;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The JSON forms of metadata, records and status reports. Written field by field with Jackson's
 * streaming generator (no bean reflection), read from a tree; every form round-trips exactly:
 * nulls stay null and integers stay integers.
 */
public final class DatalakeJson {
    /** Shared, thread-safe; reads big numbers exactly so that integers stay integers. */
    static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private static final JsonFactory FACTORY = MAPPER.getFactory();
    private static final JsonFactory ASCII_FACTORY = JsonFactory.builder()
            .enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

    private DatalakeJson() {
    }

    public static String toJson(Metadata metadata) {
        return write(g -> writeMetadata(g, metadata));
    }

    /**
     * Metadata as an object's {@code x-amz-meta-datalake} header holds it: {@link #toJson(Metadata)} with
     * every character outside ASCII escaped ({@code \u00fc}), as the Python client's {@code json.dumps}
     * writes it, since S3 user metadata is US-ASCII.
     */
    public static String toObjectMetadata(Metadata metadata) {
        return write(ASCII_FACTORY, g -> writeMetadata(g, metadata));
    }

    public static String toJson(Record record) {
        return write(g -> writeRecord(g, record));
    }

    public static String toJson(StatusReport report) {
        return write(g -> writeReport(g, report));
    }

    /** Reads metadata written by {@link #toJson(Metadata)}: times are milliseconds as they stand. */
    public static Metadata parseMetadata(String json) {
        return MetadataParser.fromNormalisedJson(readTree(json));
    }

    /** Reads a record written by {@link #toJson(Record)}; its keys must agree with its metadata. */
    public static Record parseRecord(String json) {
        JsonNode node = readTree(json);
        Record record = recordFromJson(node);
        if (!record.timeIndexKey().equals(TimeIndexKey.parse(node.path("time_index_key").asText()))
                || !record.rangeKey().equals(RangeKey.parse(node.path("range_key").asText()))
                || !record.workIdIndexKey().equals(WorkIdIndexKey.parse(node.path("work_id_index_key").asText()))) {
            throw new IllegalArgumentException("the record's keys do not match its metadata.");
        }
        return record;
    }

    public static StatusReport parseReport(String json) {
        JsonNode node = readTree(json);
        List<StatusReport.FileRecord> records = new ArrayList<>();
        for (JsonNode r : node.path("records")) {
            records.add(new StatusReport.FileRecord(r.path("url").asText(), r.path("size").asLong(),
                    r.path("create_time").asLong(), MetadataParser.fromNormalisedJson(r.get("metadata"))));
        }
        JsonNode message = node.get("message");
        return new StatusReport(StatusReport.Status.fromJson(node.path("status").asText()),
                node.path("start").asLong(), node.path("duration").asDouble(), records,
                message == null || message.isNull() ? null : message.asText());
    }

    /** Writes the metadata object: version, start, end, path, work_id, where, what, id, hash, then the extra fields. */
    public static void writeMetadata(JsonGenerator g, Metadata m) throws IOException {
        g.writeStartObject();
        writeMetadataFields(g, m);
        g.writeEndObject();
    }

    /** The fields of the metadata object, for a writer that adds its own (the query API's ISO times). */
    public static void writeMetadataFields(JsonGenerator g, Metadata m) throws IOException {
        g.writeNumberField("version", m.version());
        g.writeNumberField("start", m.start());
        if (m.end() == null) {
            g.writeNullField("end");
        } else {
            g.writeNumberField("end", m.end());
        }
        g.writeStringField("path", m.path());
        g.writeStringField("work_id", m.workId());
        g.writeStringField("where", m.where());
        g.writeStringField("what", m.what());
        g.writeStringField("id", m.id());
        g.writeStringField("hash", m.hash());
        for (Map.Entry<String, JsonNode> extra : m.extras().entrySet()) {
            g.writeFieldName(extra.getKey());
            // the mapper, not g.writeTree: the ASCII generator of toObjectMetadata has no codec
            MAPPER.writeTree(g, extra.getValue());
        }
    }

    public static void writeRecord(JsonGenerator g, Record r) throws IOException {
        g.writeStartObject();
        g.writeNumberField("version", r.version());
        g.writeStringField("url", r.url());
        g.writeStringField("time_index_key", r.timeIndexKey().toString());
        g.writeStringField("range_key", r.rangeKey().toString());
        g.writeStringField("work_id_index_key", r.workIdIndexKey().toString());
        g.writeNumberField("create_time", r.createTime());
        g.writeNumberField("size", r.size());
        g.writeFieldName("metadata");
        writeMetadata(g, r.metadata());
        if (r.expiresAt() != null) {
            g.writeNumberField("expires_at", r.expiresAt());
        }
        g.writeEndObject();
    }

    public static void writeReport(JsonGenerator g, StatusReport report) throws IOException {
        g.writeStartObject();
        g.writeStringField("status", report.status().json());
        g.writeNumberField("start", report.start());
        g.writeNumberField("duration", report.duration());
        g.writeArrayFieldStart("records");
        for (StatusReport.FileRecord r : report.records()) {
            g.writeStartObject();
            g.writeStringField("url", r.url());
            g.writeNumberField("size", r.size());
            g.writeNumberField("create_time", r.createTime());
            g.writeFieldName("metadata");
            writeMetadata(g, r.metadata());
            g.writeEndObject();
        }
        g.writeEndArray();
        if (report.message() != null) {
            g.writeStringField("message", report.message());
        }
        g.writeEndObject();
    }

    private static Record recordFromJson(JsonNode node) {
        if (node.path("version").asInt(-1) != Record.VERSION) {
            throw new IllegalArgumentException("record field 'version' must be 0.");
        }
        TimeIndexKey timeKey = TimeIndexKey.parse(node.path("time_index_key").asText());
        JsonNode expires = node.get("expires_at");
        return new Record(timeKey.bucket(), timeKey.shard(), node.path("url").asText(null),
                node.path("create_time").asLong(), node.path("size").asLong(),
                MetadataParser.fromNormalisedJson(node.get("metadata")),
                expires == null || expires.isNull() ? null : expires.asLong());
    }

    private static JsonNode readTree(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the document is not valid JSON.");
        }
    }

    /** Writes one JSON document with Jackson's streaming generator. */
    @FunctionalInterface
    public interface Writer {
        void write(JsonGenerator g) throws IOException;
    }

    /** The document {@code writer} writes, as a string (the query API's responses use it too). */
    public static String write(Writer writer) {
        return write(FACTORY, writer);
    }

    private static String write(JsonFactory factory, Writer writer) {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = factory.createGenerator(out)) {
            writer.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
