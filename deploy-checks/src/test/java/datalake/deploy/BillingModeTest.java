package datalake.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import datalake.emulators.template.ResolvedTemplate;
import datalake.emulators.template.SamTransform;
import datalake.emulators.template.Template;
import datalake.emulators.template.TemplateException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The tables' billing modes (docs/COSTS.md, "Billing modes"), on the template after the SAM transform,
 * resolved as a stack would be: on demand by default with nothing provisioned; with
 * {@code TableBillingMode=PROVISIONED}, the records table, its GSI and the latest table provisioned at a fixed
 * seed, each with a read and a write scalable target between the minimum and the maximum and a
 * target-tracking policy at the target utilisation, so that a changed minimum changes the targets only;
 * throttling alarmed in both modes. No emulator has
 * Application Auto Scaling or CloudWatch, so this is where they are checked.
 */
class BillingModeTest {
    private static final Template TEMPLATE = SamTransform.repositoryTemplate();
    private static final Map<String, String> PROVISIONED = Map.of("TableBillingMode", "PROVISIONED",
            "TableMinWriteCapacity", "7", "TableMaxWriteCapacity", "1700", "TableMinReadCapacity", "3",
            "TableMaxReadCapacity", "1300", "TableTargetUtilization", "65");

    /** What auto scaling scales: the scalable target's resource id for each table and the GSI, locally named. */
    private static Map<String, String> scaled(ResolvedTemplate stack) {
        String records = stack.ref("RecordsTable");
        return Map.of("table/" + records, "table", "table/" + records + "/index/work-id-index", "index",
                "table/" + stack.ref("LatestTable"), "table");
    }

    @Test
    void onDemandByDefaultWithNothingProvisionedNorScaled() {
        ResolvedTemplate stack = TEMPLATE.resolve().build();

        for (String table : List.of("RecordsTable", "LatestTable")) {
            JsonNode properties = stack.properties(table);
            assertEquals("PAY_PER_REQUEST", properties.path("BillingMode").asText(), table);
            assertFalse(properties.has("ProvisionedThroughput"), table + " " + properties);
            properties.path("GlobalSecondaryIndexes").forEach(index ->
                    assertFalse(index.has("ProvisionedThroughput"), table + " " + index));
        }
        List<String> scaling = new ArrayList<>();
        for (String type : List.of("AWS::ApplicationAutoScaling::ScalableTarget", "AWS::ApplicationAutoScaling::ScalingPolicy")) {
            TEMPLATE.ofType(type).stream().filter(r -> stack.exists(r.logicalId())).forEach(r -> scaling.add(r.logicalId()));
        }
        assertEquals(List.of(), scaling, "no auto scaling on demand");
    }

    @Test
    void provisionedTablesAndGsiStartAtASeedAndScaleBetweenTheBoundsAtTheTarget() {
        ResolvedTemplate stack = TEMPLATE.resolve().parameters(PROVISIONED).build();

        // Given the parameters, the tables and the GSI are provisioned at a seed that registering the targets
        // brings within the bounds
        for (String table : List.of("RecordsTable", "LatestTable")) {
            JsonNode properties = stack.properties(table);
            assertEquals("PROVISIONED", properties.path("BillingMode").asText(), table);
            assertThroughput(properties.path("ProvisionedThroughput"), table);
            properties.path("GlobalSecondaryIndexes").forEach(index ->
                    assertThroughput(index.path("ProvisionedThroughput"), table + "/" + index.path("IndexName").asText()));
        }

        // and each of them has a read and a write target between the bounds
        Map<String, String> scaled = scaled(stack);
        Set<String> targets = new TreeSet<>();
        Map<String, String> targetIds = new java.util.HashMap<>();
        for (Template.Resource target : TEMPLATE.ofType("AWS::ApplicationAutoScaling::ScalableTarget")) {
            JsonNode p = stack.properties(target.logicalId());
            String resourceId = p.path("ResourceId").asText();
            String kind = scaled.get(resourceId);
            assertTrue(kind != null, target.logicalId() + " scales " + resourceId + ", none of " + scaled.keySet());
            assertEquals("dynamodb", p.path("ServiceNamespace").asText());
            String dimension = p.path("ScalableDimension").asText();
            boolean writes = dimension.equals("dynamodb:" + kind + ":WriteCapacityUnits");
            assertTrue(writes || dimension.equals("dynamodb:" + kind + ":ReadCapacityUnits"), dimension);
            assertEquals(writes ? "7" : "3", ResolvedTemplate.text(p.path("MinCapacity")), target.logicalId());
            assertEquals(writes ? "1700" : "1300", ResolvedTemplate.text(p.path("MaxCapacity")), target.logicalId());
            assertFalse(p.has("RoleARN"), "the service-linked role, not a role of the stack's");
            assertTrue(targets.add(resourceId + " " + dimension), "one target per table and dimension");
            targetIds.put(stack.ref(target.logicalId()), dimension);
        }
        assertEquals(6, targets.size(), targets.toString());

        // and one target-tracking policy each, on the utilisation of its dimension, at the target
        Set<String> policed = new TreeSet<>();
        for (Template.Resource policy : TEMPLATE.ofType("AWS::ApplicationAutoScaling::ScalingPolicy")) {
            JsonNode p = stack.properties(policy.logicalId());
            String dimension = targetIds.get(p.path("ScalingTargetId").asText());
            assertTrue(dimension != null, policy.logicalId() + " scales none of the targets");
            assertEquals("TargetTrackingScaling", p.path("PolicyType").asText());
            JsonNode tracking = p.path("TargetTrackingScalingPolicyConfiguration");
            assertEquals("65", ResolvedTemplate.text(tracking.path("TargetValue")), policy.logicalId());
            assertEquals(dimension.endsWith("WriteCapacityUnits") ? "DynamoDBWriteCapacityUtilization"
                    : "DynamoDBReadCapacityUtilization",
                    tracking.path("PredefinedMetricSpecification").path("PredefinedMetricType").asText(), policy.logicalId());
            assertTrue(policed.add(p.path("ScalingTargetId").asText()), "one policy per target");
        }
        assertEquals(targetIds.keySet(), policed);
    }

    @Test
    void throttlingOfEitherTableOrTheGsiIsAlarmedInBothModes() {
        for (Map<String, String> parameters : List.of(Map.<String, String>of(), PROVISIONED)) {
            ResolvedTemplate stack = TEMPLATE.resolve().parameters(parameters).build();
            Set<String> watched = new TreeSet<>();
            for (Template.Resource alarm : TEMPLATE.ofType("AWS::CloudWatch::Alarm")) {
                JsonNode p = stack.properties(alarm.logicalId());
                if (!p.path("AlarmActions").toString().contains(stack.ref("AlarmTopic"))) {
                    continue;
                }
                for (JsonNode metric : p.path("Metrics")) {
                    JsonNode m = metric.path("MetricStat").path("Metric");
                    if (m.path("Namespace").asText().equals("AWS/DynamoDB")) {
                        StringBuilder what = new StringBuilder(m.path("MetricName").asText());
                        m.path("Dimensions").forEach(d -> what.append(' ').append(d.path("Value").asText()));
                        watched.add(what.toString());
                    }
                }
            }
            String records = stack.ref("RecordsTable");
            String latest = stack.ref("LatestTable");
            assertEquals(new TreeSet<>(List.of("ReadThrottleEvents " + records, "WriteThrottleEvents " + records,
                    "ReadThrottleEvents " + records + " work-id-index", "WriteThrottleEvents " + records + " work-id-index",
                    "ReadThrottleEvents " + latest, "WriteThrottleEvents " + latest)), watched, parameters.toString());
        }
    }

    @Test
    void aTargetUtilisationAutoScalingRefusesIsRefusedBeforeAnythingIsCreated() {
        // Application Auto Scaling takes 20 to 90 percent for DynamoDB
        TemplateException high = assertThrows(TemplateException.class, () -> TEMPLATE.resolve()
                .parameter("TableTargetUtilization", "95").build());
        assertTrue(high.getMessage().contains("TableTargetUtilization"), high.getMessage());
        assertThrows(TemplateException.class, () -> TEMPLATE.resolve().parameter("TableBillingMode", "ON_DEMAND").build());
    }

    @Test
    void aMinimumCapacityAboveTheMaximumCannotBeGiven() {
        // Auto scaling refuses it late, with the tables made; the parameters' ranges meet, so no pair they
        // accept is inverted
        for (String dimension : List.of("Write", "Read")) {
            String min = "TableMin" + dimension + "Capacity";
            String max = "TableMax" + dimension + "Capacity";
            TemplateException refused = assertThrows(TemplateException.class, () -> TEMPLATE.resolve()
                    .parameters(Map.of("TableBillingMode", "PROVISIONED", min, "2000", max, "1500")).build());
            assertTrue(refused.getMessage().contains(min), refused.getMessage());
            assertThrows(TemplateException.class, () -> TEMPLATE.resolve()
                    .parameters(Map.of("TableBillingMode", "PROVISIONED", min, "20", max, "10")).build());
            assertTrue(highestAccepted(min) <= lowestAccepted(max), min + " " + TEMPLATE.parameters().path(min)
                    + " ends where " + max + " " + TEMPLATE.parameters().path(max) + " starts");
        }
    }

    @Test
    void aChangedMinimumChangesTheScalableTargetsAndLeavesTheTablesAsTheyAre() {
        // CloudFormation updates a table whose properties change: were the table's throughput the minimum,
        // raising or lowering TableMin*Capacity would set the table back to it, dropping what auto scaling
        // had raised. Only the targets may change; RegisterScalableTarget moves the capacity only when it
        // lies outside the new bounds.
        ResolvedTemplate before = TEMPLATE.resolve().parameters(PROVISIONED).build();
        Map<String, String> raised = new java.util.HashMap<>(PROVISIONED);
        raised.putAll(Map.of("TableMinWriteCapacity", "400", "TableMinReadCapacity", "900"));
        ResolvedTemplate after = TEMPLATE.resolve().parameters(raised).build();

        Set<String> changed = new TreeSet<>();
        for (Template.Resource resource : TEMPLATE.resources().values()) {
            String id = resource.logicalId();
            if (before.exists(id) && !before.properties(id).equals(after.properties(id))) {
                changed.add(id);
            }
        }
        Set<String> targets = new TreeSet<>();
        TEMPLATE.ofType("AWS::ApplicationAutoScaling::ScalableTarget").forEach(t -> targets.add(t.logicalId()));
        assertEquals(targets, changed);
    }

    /** The seed is at most the lowest maximum the parameters accept, so no target has to lower it at once. */
    /** The least whole number the parameter's AllowedPattern (a whole match, as CloudFormation's) takes. */
    private static int lowestAccepted(String parameter) {
        return accepted(parameter).min().orElseThrow(() -> new AssertionError(parameter + " takes no whole number"));
    }

    /** The greatest whole number (up to a million) the parameter's AllowedPattern takes. */
    private static int highestAccepted(String parameter) {
        return accepted(parameter).max().orElseThrow(() -> new AssertionError(parameter + " takes no whole number"));
    }

    private static IntStream accepted(String parameter) {
        Pattern allowed = Pattern.compile(TEMPLATE.parameters().path(parameter).path("AllowedPattern").asText());
        return IntStream.rangeClosed(0, 1_000_000).filter(n -> allowed.matcher(Integer.toString(n)).matches());
    }

    private static void assertThroughput(JsonNode throughput, String where) {
        for (String dimension : List.of("Read", "Write")) {
            int lowestMaximum = lowestAccepted("TableMax" + dimension + "Capacity");
            int seed = Integer.parseInt(ResolvedTemplate.text(throughput.path(dimension + "CapacityUnits")));
            assertTrue(seed >= 1 && seed <= lowestMaximum, where + " " + dimension + " " + seed);
        }
    }
}
