package datalake.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.lambda.JsonLog.Metric;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonLogTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<String> lines = new ArrayList<>();
    private final JsonLog log = new JsonLog("datalake.test", lines::add,
            Clock.fixed(Instant.parse("2026-11-23T00:00:00Z"), ZoneOffset.UTC));

    @Test
    void aLineIsOneJsonDocumentWithTheStandardFieldsFirst() throws Exception {
        log.warn("something \"odd\"\n{\"forged\":true}", g -> g.writeStringField("id", "a\nb"));

        assertEquals(1, lines.size());
        assertEquals(1, lines.get(0).lines().count(), "a newline in a value stays inside its string");
        JsonNode line = JSON.readTree(lines.get(0));
        assertEquals(List.of("timestamp", "level", "logger", "message", "id"), fieldNames(line));
        assertEquals("2026-11-23T00:00:00Z", line.path("timestamp").asText());
        assertEquals("WARN", line.path("level").asText());
        assertEquals("a\nb", line.path("id").asText());
    }

    @Test
    void aFaultCarriesItsClassShortMessageAndTopOfStack() throws Exception {
        log.fault("request failed", new IllegalStateException("x".repeat(1000)), g -> { });

        JsonNode line = JSON.readTree(lines.get(0));
        assertEquals("ERROR", line.path("level").asText());
        assertTrue(line.path("error").asText().startsWith("java.lang.IllegalStateException: xxx"));
        assertTrue(line.path("error").asText().length() < 400, "the message is shortened");
        assertTrue(line.path("stack").size() > 0 && line.path("stack").size() <= 12);
    }

    @Test
    void metricsAreEmbeddedMetricFormat() throws Exception {
        log.metrics(List.of(List.of("Function"), List.of("Function", "ErrorKind")),
                Map.of("Function", "ingester", "ErrorKind", "BadJson"),
                List.of(Metric.count("Errors", 3), Metric.millis("Latency", 12)));

        JsonNode doc = JSON.readTree(lines.get(0));
        JsonNode metadata = doc.path("_aws").path("CloudWatchMetrics").get(0);
        assertEquals(1_795_392_000_000L, doc.path("_aws").path("Timestamp").asLong());
        assertEquals("Datalake", metadata.path("Namespace").asText());
        assertEquals("[[\"Function\"],[\"Function\",\"ErrorKind\"]]", metadata.path("Dimensions").toString());
        assertEquals("Count", metadata.path("Metrics").get(0).path("Unit").asText());
        assertEquals("Milliseconds", metadata.path("Metrics").get(1).path("Unit").asText());
        assertEquals(3, doc.path("Errors").asInt());
        assertEquals(12, doc.path("Latency").asInt());
        assertEquals("BadJson", doc.path("ErrorKind").asText());
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
