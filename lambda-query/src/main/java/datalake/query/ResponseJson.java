package datalake.query;

import static datalake.records.DatalakeJson.write;

import com.fasterxml.jackson.core.JsonGenerator;
import datalake.records.DatalakeJson;
import datalake.records.Metadata;
import datalake.records.Record;
import datalake.records.Times;
import java.io.IOException;
import java.util.List;

/**
 * The JSON bodies of the v0 API, written field by field. A record is
 * {@code {url, http_url, create_time, size, metadata}}; metadata carries the stored fields plus
 * {@code start_iso} and {@code end_iso} (null for an instant).
 */
final class ResponseJson {

    private ResponseJson() {
    }

    static String files(List<Record> records, String next, Links links) {
        return write(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("records");
            for (Record record : records) {
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
                g.writeStringField("what", feed.latest().metadata().what());
                g.writeStringField("where", feed.latest().metadata().where());
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

    static String record(Record record, Links links) {
        return write(g -> writeRecord(g, record, links));
    }

    static String metadata(Metadata metadata) {
        return write(g -> writeMetadata(g, metadata));
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

    private static void writeRecord(JsonGenerator g, Record record, Links links) throws IOException {
        g.writeStartObject();
        g.writeStringField("url", record.url());
        g.writeStringField("http_url", links.fileData(record.metadata().id()));
        g.writeNumberField("create_time", record.createTime());
        g.writeNumberField("size", record.size());
        g.writeFieldName("metadata");
        writeMetadata(g, record.metadata());
        g.writeEndObject();
    }

    private static void writeMetadata(JsonGenerator g, Metadata m) throws IOException {
        g.writeStartObject();
        DatalakeJson.writeMetadataFields(g, m);
        g.writeStringField("start_iso", Times.toIso(m.start()));
        g.writeStringField("end_iso", m.end() == null ? null : Times.toIso(m.end()));
        g.writeEndObject();
    }
}
