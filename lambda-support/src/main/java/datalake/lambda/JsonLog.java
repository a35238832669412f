package datalake.lambda;

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
 * The functions' one log writer: a JSON document a line ({@code timestamp}, {@code level},
 * {@code logger}, {@code message}, then the caller's fields), and CloudWatch Embedded Metric Format
 * documents, which CloudWatch turns into metrics without an API call. JSON escaping keeps anything an
 * input holds (a newline, a quote) inside its string, so no input can forge a line; callers log
 * identifiers only, never metadata values or content.
 */
public final class JsonLog {
    /** The namespace of every metric the functions emit. */
    public static final String NAMESPACE = "Datalake";
    private static final JsonFactory JSON = new JsonFactory();
    private static final int MAX_TEXT = 300;
    private static final int MAX_FRAMES = 12;

    private final String logger;
    private final Consumer<String> out;
    private final Clock clock;

    /** Log levels as CloudWatch Logs Insights reads them. */
    public enum Level { INFO, WARN, ERROR }

    /** Writes the fields of one line after the standard ones. */
    @FunctionalInterface
    public interface Fields {
        void write(JsonGenerator g) throws IOException;
    }

    /** A metric of an EMF document: a name, a CloudWatch unit ({@code Count}, {@code Milliseconds}) and a value. */
    public record Metric(String name, String unit, long value) {
        public static Metric count(String name, long value) {
            return new Metric(name, "Count", value);
        }

        public static Metric millis(String name, long value) {
            return new Metric(name, "Milliseconds", value);
        }
    }

    /**
     * @param logger names the writer in each line, e.g. {@code datalake.ingester}
     * @param out    receives each line (in Lambda, standard output: every line a log event)
     */
    public JsonLog(String logger, Consumer<String> out, Clock clock) {
        this.logger = logger;
        this.out = out;
        this.clock = clock;
    }

    public static JsonLog toStandardOutput(String logger) {
        // System.out is looked up at each line: a test (or a runner) may have replaced it since.
        return new JsonLog(logger, line -> System.out.println(line), Clock.systemUTC());
    }

    /** A writer whose lines go nowhere (SnapStart priming). */
    public static JsonLog discarding(String logger) {
        return new JsonLog(logger, line -> { }, Clock.systemUTC());
    }

    public void info(String message, Fields fields) {
        line(Level.INFO, message, fields);
    }

    public void warn(String message, Fields fields) {
        line(Level.WARN, message, fields);
    }

    public void error(String message, Fields fields) {
        line(Level.ERROR, message, fields);
    }

    public void line(Level level, String message, Fields fields) {
        emit(g -> {
            g.writeStartObject();
            g.writeStringField("timestamp", Instant.ofEpochMilli(clock.millis()).toString());
            g.writeStringField("level", level.name());
            g.writeStringField("logger", logger);
            g.writeStringField("message", message);
            fields.write(g);
            g.writeEndObject();
        });
    }

    /**
     * A fault of the function itself: the exception's class and shortened message, and the top of its
     * stack, all inside one line.
     */
    public void fault(String message, Throwable error, Fields fields) {
        error(message, g -> {
            fields.write(g);
            g.writeStringField("error", error.getClass().getName() + ": " + shorten(String.valueOf(error.getMessage())));
            g.writeArrayFieldStart("stack");
            StackTraceElement[] frames = error.getStackTrace();
            for (int i = 0; i < Math.min(MAX_FRAMES, frames.length); i++) {
                g.writeString(frames[i].toString());
            }
            g.writeEndArray();
        });
    }

    /**
     * One EMF document: the metrics, in namespace {@value #NAMESPACE}, under each of the dimension sets
     * (names of {@code dimensions}' keys).
     */
    public void metrics(List<List<String>> dimensionSets, Map<String, String> dimensions, List<Metric> metrics) {
        long now = clock.millis();
        emit(g -> {
            g.writeStartObject();
            g.writeObjectFieldStart("_aws");
            g.writeNumberField("Timestamp", now);
            g.writeArrayFieldStart("CloudWatchMetrics");
            g.writeStartObject();
            g.writeStringField("Namespace", NAMESPACE);
            g.writeArrayFieldStart("Dimensions");
            for (List<String> set : dimensionSets) {
                g.writeStartArray();
                for (String dimension : set) {
                    g.writeString(dimension);
                }
                g.writeEndArray();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("Metrics");
            for (Metric metric : metrics) {
                g.writeStartObject();
                g.writeStringField("Name", metric.name());
                g.writeStringField("Unit", metric.unit());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
            for (Map.Entry<String, String> dimension : dimensions.entrySet()) {
                g.writeStringField(dimension.getKey(), dimension.getValue());
            }
            for (Metric metric : metrics) {
                g.writeNumberField(metric.name(), metric.value());
            }
            g.writeEndObject();
        });
    }

    /** Writes a string field when the value is not null. */
    public static void field(JsonGenerator g, String name, String value) throws IOException {
        if (value != null) {
            g.writeStringField(name, value);
        }
    }

    /** At most a few hundred characters of a text, on one line. */
    public static String shorten(String text) {
        if (text == null || text.isBlank()) {
            return "(no detail)";
        }
        String line = text.replaceAll("\\s+", " ").strip();
        return line.length() <= MAX_TEXT ? line : line.substring(0, MAX_TEXT) + "...";
    }

    private void emit(Fields document) {
        StringWriter line = new StringWriter(256);
        try (JsonGenerator g = JSON.createGenerator(line)) {
            document.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.accept(line.toString());
    }
}
