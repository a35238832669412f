package datalake.ingester;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.emulators.template.ResolvedTemplate;
import datalake.emulators.template.SamTransform;
import datalake.emulators.template.Template;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A status report that cannot be published is never silent (docs/DESIGN.md, "Failure policy"): the
 * ingester counts it in the metric ReportsFailed, and template.yaml has an alarm on exactly that metric,
 * namespace and dimension, sending to the alarm topic.
 */
class ReportsAlarmTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theTemplatesAlarmWatchesTheMetricTheIngesterWrites() throws IOException {
        // Given the deployed stack's alarms on the ingester's ReportsFailed
        ResolvedTemplate stack = SamTransform.repositoryTemplate().resolve().build();
        List<JsonNode> alarms = new ArrayList<>();
        for (Template.Resource alarm : stack.template().ofType("AWS::CloudWatch::Alarm")) {
            JsonNode p = stack.properties(alarm.logicalId());
            if (p.path("MetricName").asText().equals("ReportsFailed")) {
                alarms.add(p);
            }
        }
        assertEquals(1, alarms.size(), "one alarm on ReportsFailed");
        JsonNode alarm = alarms.get(0);
        String function = stack.ref("IngesterFunction");

        // When the ingester, named as Lambda names it, counts a report it could not publish
        List<String> lines = new ArrayList<>();
        new Telemetry(lines::add, Clock.systemUTC()).batch(function, new BatchSummary("request-1", 1, 1, 0, 0, 1, 1, 1,
                0, 0, 1, Map.of(), 5, Map.of(), List.of()));
        JsonNode document = JSON.readTree(lines.stream().filter(l -> l.contains("\"_aws\"")).findFirst().orElseThrow());

        // Then the alarm reads that very metric: namespace, name, dimension and its value
        JsonNode directive = document.path("_aws").path("CloudWatchMetrics").get(0);
        assertEquals(directive.path("Namespace").asText(), alarm.path("Namespace").asText());
        assertTrue(directive.path("Metrics").findValuesAsText("Name").contains("ReportsFailed"), directive.toString());
        assertEquals("[[\"Function\"]]", directive.path("Dimensions").toString());
        assertEquals("Function", alarm.path("Dimensions").get(0).path("Name").asText());
        assertEquals(document.path("Function").asText(), alarm.path("Dimensions").get(0).path("Value").asText());
        assertEquals(1, document.path("ReportsFailed").asInt());
        // and it fires on one, summed, and tells the alarm topic
        assertEquals("Sum", alarm.path("Statistic").asText());
        assertEquals(0, alarm.path("Threshold").asDouble());
        assertEquals("GreaterThanThreshold", alarm.path("ComparisonOperator").asText());
        assertEquals(List.of(stack.ref("AlarmTopic")), List.of(alarm.path("AlarmActions").get(0).asText()));
    }
}
