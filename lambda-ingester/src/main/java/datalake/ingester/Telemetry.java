package datalake.ingester;

import datalake.lambda.JsonLog;
import datalake.lambda.JsonLog.Metric;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What the ingester says about its work, through lambda-support's {@link JsonLog}: one line per batch
 * with its counts, the wall time of its phases and each message that did not succeed, named; a line of
 * its own for each such message (identifiers only: what, where and id, never other metadata or content);
 * warnings; and Embedded Metric Format metrics (namespace {@value JsonLog#NAMESPACE}, dimension
 * {@code Function}).
 */
public final class Telemetry {
    static final String LOGGER = "datalake.ingester";
    private final JsonLog log;

    public Telemetry(JsonLog log) {
        this.log = log;
    }

    /** @param out receives each line (tests keep them) */
    public Telemetry(Consumer<String> out, Clock clock) {
        this(new JsonLog(LOGGER, out, clock));
    }

    public static Telemetry toStandardOutput() {
        return new Telemetry(JsonLog.toStandardOutput(LOGGER));
    }

    /** Lines written and dropped: SnapStart priming runs the code, but is no traffic to report. */
    public static Telemetry discarding() {
        return new Telemetry(JsonLog.discarding(LOGGER));
    }

    /** The failures a batch's line names at most: each has its own line too, and a log event is at most 256 KB. */
    static final int MAX_FAILURES_NAMED = 20;

    /** The line of one queue message ({@link BatchMessage#log}): INFO, or by its failure, ERROR or WARN. */
    void message(Failure failure, JsonLog.Fields fields) {
        JsonLog.Level level = failure == null ? JsonLog.Level.INFO
                : failure.permanent() ? JsonLog.Level.ERROR : JsonLog.Level.WARN;
        log.line(level, "message handled", fields);
    }

    /** A problem that does not change a message's outcome (a report that could not be published). */
    void warning(String requestId, String event, String messageId, String detail) {
        log.warn(event, g -> {
            JsonLog.field(g, "requestId", requestId);
            JsonLog.field(g, "messageId", messageId);
            JsonLog.field(g, "detail", detail);
        });
    }

    /** A failure of the whole invocation (a defect): every message goes back to SQS. */
    void batchError(String requestId, int messages, Throwable error) {
        log.error("batch failed", g -> {
            JsonLog.field(g, "requestId", requestId);
            g.writeNumberField("messages", messages);
            g.writeStringField("error", error.getClass().getName() + ": " + JsonLog.shorten(error.getMessage()));
        });
    }

    /**
     * The batch's one line ({@code "batch handled"}: INFO, or WARN when a message is retried or a report
     * not published, ERROR when a message is dead-lettered), then its metrics, which the alarms read.
     */
    void batch(String function, BatchSummary s) {
        JsonLog.Level level = s.failed() > 0 ? JsonLog.Level.ERROR
                : s.retried() > 0 || s.reportsFailed() > 0 ? JsonLog.Level.WARN : JsonLog.Level.INFO;
        log.line(level, "batch handled", g -> {
            JsonLog.field(g, "requestId", s.requestId());
            g.writeNumberField("messages", s.messages());
            g.writeNumberField("succeeded", s.succeeded());
            g.writeNumberField("failed", s.failed());
            g.writeNumberField("retried", s.retried());
            g.writeNumberField("files", s.files());
            g.writeNumberField("records", s.records());
            g.writeNumberField("records_written", s.recordsWritten());
            g.writeNumberField("records_removed", s.recordsRemoved());
            g.writeNumberField("reports", s.reports());
            g.writeNumberField("reports_failed", s.reportsFailed());
            for (Map.Entry<String, Long> phase : s.phases().entrySet()) {
                g.writeNumberField(phase.getKey() + "_ms", phase.getValue());
            }
            g.writeNumberField("duration_ms", s.durationMillis());
            if (!s.failures().isEmpty()) {
                g.writeArrayFieldStart("failures");
                for (BatchSummary.Failed failed : s.failures().subList(0, Math.min(MAX_FAILURES_NAMED, s.failures().size()))) {
                    g.writeStartObject();
                    g.writeStringField("messageId", failed.messageId());
                    g.writeStringField("status", failed.status());
                    g.writeStringField("error_kind", failed.failure().kind().label());
                    g.writeStringField("error_message", failed.failure().message());
                    g.writeEndObject();
                }
                g.writeEndArray();
                if (s.failures().size() > MAX_FAILURES_NAMED) {
                    g.writeNumberField("failures_not_named", s.failures().size() - MAX_FAILURES_NAMED);
                }
            }
        });
        metrics(function, s);
    }

    private void metrics(String function, BatchSummary s) {
        log.metrics(List.of(List.of("Function")), Map.of("Function", function), List.of(
                Metric.count("Messages", s.messages()),
                Metric.count("MessagesSucceeded", s.succeeded()),
                Metric.count("MessagesFailed", s.failed()),
                Metric.count("MessagesRetried", s.retried()),
                Metric.count("RecordsWritten", s.recordsWritten()),
                Metric.count("ReportsFailed", s.reportsFailed()),
                Metric.millis("Latency", s.durationMillis())));
        // Errors by kind: one document per kind, in two dimension sets, so that Errors{Function}
        // is the total and Errors{Function,ErrorKind} the breakdown.
        for (Map.Entry<ErrorKind, Integer> error : s.errors().entrySet()) {
            Map<String, String> dimensions = new LinkedHashMap<>();
            dimensions.put("Function", function);
            dimensions.put("ErrorKind", error.getKey().label());
            log.metrics(List.of(List.of("Function"), List.of("Function", "ErrorKind")), dimensions,
                    List.of(Metric.count("Errors", error.getValue())));
        }
    }
}
