package datalake.ingester;

import datalake.records.DatalakeJson;
import datalake.records.StatusReport;

/**
 * A status report as published: the datalake ingester's format ({@code status}, {@code start},
 * {@code duration}, {@code records}, {@code message}) with {@code action} added after the status, so
 * that subscribers tell an indexed file from a removed one. Readers of the older format ignore it.
 */
final class ReportJson {
    private ReportJson() {
    }

    static String toJson(Report report) {
        StatusReport r = report.report();
        return DatalakeJson.write(g -> {
            g.writeStartObject();
            g.writeStringField("status", r.status().json());
            if (report.action() != null) {
                g.writeStringField("action", report.action().json());
            }
            g.writeNumberField("start", r.start());
            g.writeNumberField("duration", r.duration());
            g.writeArrayFieldStart("records");
            for (StatusReport.FileRecord file : r.records()) {
                g.writeStartObject();
                g.writeStringField("url", file.url());
                g.writeNumberField("size", file.size());
                g.writeNumberField("create_time", file.createTime());
                g.writeFieldName("metadata");
                DatalakeJson.writeMetadata(g, file.metadata());
                g.writeEndObject();
            }
            g.writeEndArray();
            if (r.message() != null) {
                g.writeStringField("message", r.message());
            }
            g.writeEndObject();
        });
    }
}
