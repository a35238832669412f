package datalake.ingester;

import datalake.lambda.JsonLog;
import datalake.lambda.JsonLog.Metric;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What the ingester says about its work, through lambda-support's {@link JsonLog}: a log line per
 * queue message with its outcome (identifiers only: what, where and id, never other metadata or
 * content), warnings, and Embedded Metric Format metrics (namespace {@value JsonLog#NAMESPACE},
 * dimension {@code Function}).
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

    /** The counts of one invocation. */
    record BatchMetrics(String function, int messages, int succeeded, int failed, int retried, int recordsWritten,
            int reportsFailed, long latencyMillis, Map<ErrorKind, Integer> errors) {
    }

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

    void metrics(BatchMetrics m) {
        log.metrics(List.of(List.of("Function")), Map.of("Function", m.function()), List.of(
                Metric.count("Messages", m.messages()),
                Metric.count("MessagesSucceeded", m.succeeded()),
                Metric.count("MessagesFailed", m.failed()),
                Metric.count("MessagesRetried", m.retried()),
                Metric.count("RecordsWritten", m.recordsWritten()),
                Metric.count("ReportsFailed", m.reportsFailed()),
                Metric.millis("Latency", m.latencyMillis())));
        // Errors by kind: one document per kind, in two dimension sets, so that Errors{Function}
        // is the total and Errors{Function,ErrorKind} the breakdown.
        for (Map.Entry<ErrorKind, Integer> error : m.errors().entrySet()) {
            Map<String, String> dimensions = new LinkedHashMap<>();
            dimensions.put("Function", m.function());
            dimensions.put("ErrorKind", error.getKey().label());
            log.metrics(List.of(List.of("Function"), List.of("Function", "ErrorKind")), dimensions,
                    List.of(Metric.count("Errors", error.getValue())));
        }
    }
}
