package datalake.query;

import static datalake.records.DatalakeJson.write;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import datalake.dynamodb.AttributeJson;
import datalake.dynamodb.RecordItems;
import datalake.dynamodb.StoredRecord;
import java.io.IOException;
import java.util.List;

/**
 * The JSON bodies of the v0 API, written field by field. A record is
 * {@code {url, http_url, create_time, size, metadata}}, {@code create_time} and {@code size} as stored
 * (null when the item has none, as the Python datalake's first records); metadata carries the stored
 * fields plus {@code start_iso} and {@code end_iso} (null for an instant), see {@link StoredJson}.
 */
final class ResponseJson {

    private ResponseJson() {
    }

    static String files(List<StoredRecord> records, String next, Links links) {
        return write(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("records");
            for (StoredRecord record : records) {
                writeRecord(g, record, links);
            }
            g.writeEndArray();
            g.writeStringField("next", next);
            g.writeEndObject();
        });
    }

    /** {@code {"feeds": [{what, where, latest, age_ms}], "next"}}. */
    static String feeds(List<FeedsPager.Feed> feeds, String next, Links links) {
        return write(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("feeds");
            for (FeedsPager.Feed feed : feeds) {
                g.writeStartObject();
                g.writeStringField("what", feed.latest().what());
                g.writeStringField("where", feed.latest().where());
                g.writeFieldName("latest");
                writeRecord(g, feed.latest(), links);
                g.writeNumberField("age_ms", feed.ageMs());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeStringField("next", next);
            g.writeEndObject();
        });
    }

    /** {@code {"step": "hour"|"day", "bins": [{start, files, bytes}]}}. */
    static String coverage(CoverageReader.Bins bins) {
        return write(g -> {
            g.writeStartObject();
            g.writeStringField("step", bins.query().step().text);
            g.writeArrayFieldStart("bins");
            for (int i = 0; i < bins.files().length; i++) {
                g.writeStartObject();
                g.writeNumberField("start", bins.start(i));
                g.writeNumberField("files", bins.files()[i]);
                g.writeNumberField("bytes", bins.bytes()[i]);
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    static String record(StoredRecord record, Links links) {
        return write(g -> writeRecord(g, record, links));
    }

    /** A file's metadata as its object stores it (a JSON object), its times normalised. */
    static String metadata(JsonNode stored) {
        return write(g -> StoredJson.writeUserMetadata(g, stored));
    }

    static String error(String code, String message) {
        return write(g -> {
            g.writeStartObject();
            g.writeStringField("code", code);
            g.writeStringField("message", message);
            g.writeEndObject();
        });
    }

    static String archive(String storageUrl) {
        return write(g -> {
            g.writeStartObject();
            g.writeStringField("storage_url", storageUrl);
            g.writeEndObject();
        });
    }

    /** {@code {"data": {"build": {"version": …}}}}, the v0 environment document. */
    static String environment(String version) {
        return write(g -> {
            g.writeStartObject();
            g.writeObjectFieldStart("data");
            g.writeObjectFieldStart("build");
            g.writeStringField("version", version);
            g.writeEndObject();
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    private static void writeRecord(JsonGenerator g, StoredRecord record, Links links) throws IOException {
        g.writeStartObject();
        g.writeStringField("url", record.url());
        g.writeStringField("http_url", links.fileData(record.id()));
        g.writeFieldName("create_time");
        AttributeJson.write(g, record.item().get(RecordItems.CREATE_TIME));
        g.writeFieldName("size");
        AttributeJson.write(g, record.item().get(RecordItems.SIZE));
        g.writeFieldName("metadata");
        StoredJson.writeMetadata(g, record);
        g.writeEndObject();
    }
}
