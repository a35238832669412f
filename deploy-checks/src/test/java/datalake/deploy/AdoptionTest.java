package datalake.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import datalake.emulators.template.ResolvedTemplate;
import datalake.emulators.template.SamTransform;
import datalake.emulators.template.Template;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * ExistingBucketName (README, "Adopting an existing bucket"), on the template after the SAM transform,
 * resolved as a stack would be: no bucket of the stack's own, and every S3 ARN of every policy and
 * condition, every function's DATALAKE_STORAGE_URL and the storage outputs name the adopted bucket (or
 * the operations bucket), never the bucket the stack would have made.
 */
class AdoptionTest {
    private static final Template TEMPLATE = SamTransform.repositoryTemplate();
    private static final String ADOPTED = "team-data.example";
    private static final Pattern S3_ARN = Pattern.compile("arn:aws:s3:::([a-z0-9.-]+)");

    private static ResolvedTemplate adopting() {
        return TEMPLATE.resolve().parameters(Map.of("ExistingBucketName", ADOPTED)).build();
    }

    @Test
    void everyBucketTheAdoptingStackNamesIsTheAdoptedOneOrItsOperationsBucket() {
        ResolvedTemplate own = TEMPLATE.resolve().build();
        String ownBucket = own.ref("StorageBucket");
        ResolvedTemplate stack = adopting();
        String operations = stack.ref("OperationsBucket");

        List<String> named = new ArrayList<>();
        for (Template.Resource resource : TEMPLATE.resources().values()) {
            if (!stack.exists(resource.logicalId())) {
                continue;
            }
            String properties = stack.properties(resource.logicalId()).toString();
            assertFalse(properties.contains(ownBucket), resource.logicalId() + " names " + ownBucket + ": " + properties);
            Matcher arn = S3_ARN.matcher(properties);
            while (arn.find()) {
                named.add(resource.logicalId() + " " + arn.group(1));
                assertTrue(arn.group(1).equals(ADOPTED) || arn.group(1).equals(operations),
                        resource.logicalId() + " names the bucket " + arn.group(1));
            }
        }
        // the grants that must reach it do: each function's, the operator's, the inventory's and the ingest queue's
        for (String holder : List.of("IngesterFunctionRole " + ADOPTED, "BackfillFunctionRole " + ADOPTED,
                "QueryFunctionRole " + ADOPTED, "IndexOperatorPolicy " + ADOPTED, "OperationsBucketPolicy " + ADOPTED,
                "IngestQueuePolicy " + ADOPTED)) {
            assertTrue(named.contains(holder), holder + " among " + named);
        }
        for (String function : List.of("IngesterFunction", "BackfillFunction", "QueryFunction")) {
            assertEquals("s3://" + ADOPTED, ResolvedTemplate.text(stack.properties(function).path("Environment")
                    .path("Variables").path("DATALAKE_STORAGE_URL")), function);
        }
        assertEquals("s3://" + ADOPTED, stack.outputs().get("StorageUrl"));
        assertEquals(ADOPTED, stack.outputs().get("StorageBucketName"));
    }

    @Test
    void theStackMakesNoBucketAndItsRuleTakesOnlyTheAdoptedBucketsCreationsAndRemovals() {
        ResolvedTemplate stack = adopting();
        assertFalse(stack.exists("StorageBucket"));
        assertFalse(stack.exists("StorageBucketPolicy"));
        // even with the default UploadNotifications=Topic: the bucket's events come through EventBridge
        for (String topicPart : List.of("UploadTopic", "UploadTopicPolicy", "UploadSubscription",
                "IngestDeadLetterQueuePolicy")) {
            assertFalse(stack.exists(topicPart), topicPart + " is made for an adopted bucket, which never notifies it");
        }

        JsonNode rule = stack.properties("AdoptedBucketEvents");
        assertEquals("[\"aws.s3\"]", rule.path("EventPattern").path("source").toString());
        assertEquals("[\"Object Created\",\"Object Deleted\"]", rule.path("EventPattern").path("detail-type").toString());
        assertEquals("[\"" + ADOPTED + "\"]", rule.path("EventPattern").path("detail").path("bucket").path("name").toString());
        assertEquals(stack.getAtt("IngestQueue", "Arn"), ResolvedTemplate.text(rule.path("Targets").path(0).path("Arn")));

        // and only that rule may send through EventBridge to the ingest queue
        boolean bound = false;
        for (JsonNode statement : stack.properties("IngestQueuePolicy").path("PolicyDocument").path("Statement")) {
            if (statement.path("Principal").path("Service").asText().equals("events.amazonaws.com")) {
                assertEquals(stack.getAtt("AdoptedBucketEvents", "Arn"),
                        statement.path("Condition").path("ArnEquals").path("aws:SourceArn").asText());
                bound = true;
            }
        }
        assertTrue(bound, "the ingest queue's policy lets the rule deliver");
    }

    @Test
    void withoutTheParameterTheStackMakesItsBucketAndNoRule() {
        ResolvedTemplate stack = TEMPLATE.resolve().build();
        assertTrue(stack.exists("StorageBucket"));
        assertFalse(stack.exists("AdoptedBucketEvents"));
        assertEquals("s3://" + stack.ref("StorageBucket"), stack.outputs().get("StorageUrl"));
        for (JsonNode statement : stack.properties("IngestQueuePolicy").path("PolicyDocument").path("Statement")) {
            assertFalse(statement.toString().contains("events.amazonaws.com"), statement.toString());
        }
    }
}
