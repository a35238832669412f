package datalake.query;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * The query function's log lines, each one JSON document: a request line (method, path, status,
 * duration; never the query string, whose values are the caller's) and a fault line. JSON escaping
 * keeps a newline or quote sent in a path inside its string, so no input can forge a line.
 */
final class LogLines {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final int MAX_TEXT = 300;
    private static final int MAX_FRAMES = 12;

    private LogLines() {
    }

    static String request(APIGatewayV2HTTPEvent event, int status, long durationMillis) {
        APIGatewayV2HTTPEvent.RequestContext context = event.getRequestContext();
        String method = context != null && context.getHttp() != null ? context.getHttp().getMethod() : null;
        return write(g -> {
            g.writeStringField("level", status >= 500 ? "ERROR" : "INFO");
            g.writeStringField("message", "request");
            g.writeStringField("method", shorten(method == null ? "?" : method));
            g.writeStringField("path", shorten(event.getRawPath() == null ? "" : event.getRawPath()));
            g.writeNumberField("status", status);
            g.writeNumberField("duration_ms", durationMillis);
        });
    }

    static String fault(Throwable e) {
        return write(g -> {
            g.writeStringField("level", "ERROR");
            g.writeStringField("message", "request failed");
            g.writeStringField("error", e.getClass().getName() + ": " + shorten(String.valueOf(e.getMessage())));
            g.writeArrayFieldStart("stack");
            StackTraceElement[] frames = e.getStackTrace();
            for (int i = 0; i < Math.min(MAX_FRAMES, frames.length); i++) {
                g.writeString(frames[i].toString());
            }
            g.writeEndArray();
        });
    }

    /** An item of the records table that is no datalake record: its keys, for whoever owns the table. */
    static String skippedItem(String hashKey, String rangeKey) {
        return write(g -> {
            g.writeStringField("level", "WARN");
            g.writeStringField("message", "skipping an item that is not a datalake record");
            g.writeStringField("hash_key", shorten(hashKey));
            if (rangeKey != null) {
                g.writeStringField("range_key", shorten(rangeKey));
            }
        });
    }

    private static String shorten(String text) {
        return text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT) + "...";
    }

    private interface Fields {
        void write(JsonGenerator g) throws IOException;
    }

    private static String write(Fields fields) {
        StringWriter out = new StringWriter(160);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.writeStartObject();
            fields.write(g);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
