package datalake.ingester;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The ingester's structured output, one JSON document a line: a log line per queue message with its
 * outcome (identifiers only: what, where and id, never other metadata or content), warnings, and
 * CloudWatch Embedded Metric Format lines (namespace {@value #NAMESPACE}, dimension
 * {@code Function}) that CloudWatch turns into metrics without any API call.
 */
public final class Telemetry {
    public static final String NAMESPACE = "Datalake";
    private static final JsonFactory JSON = new JsonFactory();
    private final Consumer<String> out;
    private final Clock clock;

    /** @param out receives each line (in Lambda, standard output: every line a log event) */
    public Telemetry(Consumer<String> out, Clock clock) {
        this.out = out;
        this.clock = clock;
    }

    public static Telemetry toStandardOutput() {
        return new Telemetry(System.out::println, Clock.systemUTC());
    }

    /** The outcome of one queue message. */
    record MessageLine(String requestId, String messageId, String status, String what, String where, String id,
            int files, int records, int recordsWritten, Failure failure, long durationMillis) {
    }

    /** The counts of one invocation. */
    record BatchMetrics(String function, int messages, int succeeded, int failed, int retried, int recordsWritten,
            int reportsFailed, long latencyMillis, Map<ErrorKind, Integer> errors) {
    }

    void message(MessageLine m) {
        emit(g -> {
            start(g, m.failure() == null ? "INFO" : m.failure().permanent() ? "ERROR" : "WARN", "message handled");
            field(g, "requestId", m.requestId());
            field(g, "messageId", m.messageId());
            g.writeStringField("status", m.status());
            field(g, "what", m.what());
            field(g, "where", m.where());
            field(g, "id", m.id());
            g.writeNumberField("files", m.files());
            g.writeNumberField("records", m.records());
            g.writeNumberField("records_written", m.recordsWritten());
            if (m.failure() != null) {
                g.writeStringField("error_kind", m.failure().kind().label());
                g.writeStringField("error_message", m.failure().message());
            }
            g.writeNumberField("duration_ms", m.durationMillis());
        });
    }

    /** A problem that does not change a message's outcome (a report that could not be published). */
    void warning(String requestId, String event, String messageId, String detail) {
        emit(g -> {
            start(g, "WARN", event);
            field(g, "requestId", requestId);
            field(g, "messageId", messageId);
            field(g, "detail", detail);
        });
    }

    /** A failure of the whole invocation (a defect): every message goes back to SQS. */
    void batchError(String requestId, int messages, Throwable error) {
        emit(g -> {
            start(g, "ERROR", "batch failed");
            field(g, "requestId", requestId);
            g.writeNumberField("messages", messages);
            g.writeStringField("error", error.getClass().getName() + ": " + Failures.shorten(error.getMessage()));
        });
    }

    void metrics(BatchMetrics m) {
        long now = clock.millis();
        emit(g -> {
            emfHeader(g, now, List.of(List.of("Function")), List.of("Messages", "MessagesSucceeded", "MessagesFailed",
                    "MessagesRetried", "RecordsWritten", "ReportsFailed"), "Latency");
            g.writeStringField("Function", m.function());
            g.writeNumberField("Messages", m.messages());
            g.writeNumberField("MessagesSucceeded", m.succeeded());
            g.writeNumberField("MessagesFailed", m.failed());
            g.writeNumberField("MessagesRetried", m.retried());
            g.writeNumberField("RecordsWritten", m.recordsWritten());
            g.writeNumberField("ReportsFailed", m.reportsFailed());
            g.writeNumberField("Latency", m.latencyMillis());
            g.writeEndObject();
        });
        // Errors by kind: one document per kind, in two dimension sets, so that Errors{Function}
        // is the total and Errors{Function,ErrorKind} the breakdown.
        for (Map.Entry<ErrorKind, Integer> error : m.errors().entrySet()) {
            emit(g -> {
                emfHeader(g, now, List.of(List.of("Function"), List.of("Function", "ErrorKind")), List.of("Errors"), null);
                g.writeStringField("Function", m.function());
                g.writeStringField("ErrorKind", error.getKey().label());
                g.writeNumberField("Errors", error.getValue());
                g.writeEndObject();
            });
        }
    }

    private void start(JsonGenerator g, String level, String message) throws IOException {
        g.writeStartObject();
        g.writeStringField("timestamp", Instant.ofEpochMilli(clock.millis()).toString());
        g.writeStringField("level", level);
        g.writeStringField("logger", "datalake.ingester");
        g.writeStringField("message", message);
    }

    /**
     * Opens an Embedded Metric Format document and writes its {@code _aws} metadata: the dimension
     * sets, the counts, and an optional metric in milliseconds; the caller writes the values.
     */
    private static void emfHeader(JsonGenerator g, long timestamp, List<List<String>> dimensionSets,
            List<String> counts, String millis) throws IOException {
        g.writeStartObject();
        g.writeObjectFieldStart("_aws");
        g.writeNumberField("Timestamp", timestamp);
        g.writeArrayFieldStart("CloudWatchMetrics");
        g.writeStartObject();
        g.writeStringField("Namespace", NAMESPACE);
        g.writeArrayFieldStart("Dimensions");
        for (List<String> dimensions : dimensionSets) {
            g.writeStartArray();
            for (String dimension : dimensions) {
                g.writeString(dimension);
            }
            g.writeEndArray();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("Metrics");
        for (String count : counts) {
            metric(g, count, "Count");
        }
        if (millis != null) {
            metric(g, millis, "Milliseconds");
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void metric(JsonGenerator g, String name, String unit) throws IOException {
        g.writeStartObject();
        g.writeStringField("Name", name);
        g.writeStringField("Unit", unit);
        g.writeEndObject();
    }

    private static void field(JsonGenerator g, String name, String value) throws IOException {
        if (value != null) {
            g.writeStringField(name, value);
        }
    }

    private interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private void emit(Body body) {
        StringWriter line = new StringWriter(256);
        try (JsonGenerator g = JSON.createGenerator(line)) {
            body.write(g);
            if (g.getOutputContext().inObject()) {
                g.writeEndObject();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.accept(line.toString());
    }
}
