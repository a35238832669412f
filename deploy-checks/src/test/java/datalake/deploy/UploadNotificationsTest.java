package datalake.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import datalake.deploy.iam.Decision;
import datalake.deploy.iam.Request;
import datalake.deploy.iam.StackPolicies;
import datalake.emulators.template.ResolvedTemplate;
import datalake.emulators.template.SamTransform;
import datalake.emulators.template.Template;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Where the bucket's notifications go (template parameter UploadNotifications), on the template after the
 * SAM transform, resolved as a stack would be: to the upload topic by default (which delivers to the ingest
 * queue), or with {@code Queue} straight to the ingest queue, with no topic. Both modes notify the same three
 * events, and the queue's policy is the same in both, allowing the stack's topic and the stack's bucket,
 * so that switching the mode on a live stack never denies the old source mid-update; what SNS cannot
 * deliver goes to the ingest DLQ.
 */
class UploadNotificationsTest {
    private static final Template TEMPLATE = SamTransform.repositoryTemplate();
    private static final List<String> EVENTS = List.of("s3:ObjectCreated:*", "s3:ObjectRemoved:*", "s3:LifecycleExpiration:*");
    private static final List<String> TOPIC_ONLY = List.of("UploadTopic", "UploadTopicPolicy", "UploadSubscription",
            "IngestDeadLetterQueuePolicy");

    private static ResolvedTemplate queueMode() {
        return TEMPLATE.resolve().parameter("UploadNotifications", "Queue").build();
    }

    @Test
    void byDefaultTheBucketNotifiesTheUploadTopicWhichAloneDeliversToTheQueue() {
        ResolvedTemplate stack = TEMPLATE.resolve().build();

        TOPIC_ONLY.forEach(id -> assertTrue(stack.exists(id), id));
        assertTrue(stack.outputs().containsKey("UploadTopicArn"));
        JsonNode notifications = stack.properties("StorageBucket").path("NotificationConfiguration");
        assertEquals(EVENTS, events(notifications.path("TopicConfigurations"), "Topic", stack.ref("UploadTopic")));
        assertFalse(notifications.has("QueueConfigurations"), notifications.toString());

        assertTrue(sends(stack, "sns.amazonaws.com", stack.ref("UploadTopic"), stack.accountId()));
    }

    @Test
    void inQueueModeTheBucketNotifiesTheQueueAndThereIsNoUploadTopic() {
        ResolvedTemplate stack = queueMode();

        TOPIC_ONLY.forEach(id -> assertFalse(stack.exists(id), id));
        assertFalse(stack.outputs().containsKey("UploadTopicArn"));
        JsonNode notifications = stack.properties("StorageBucket").path("NotificationConfiguration");
        assertEquals(EVENTS, events(notifications.path("QueueConfigurations"), "Queue", stack.getAtt("IngestQueue", "Arn")));
        assertFalse(notifications.has("TopicConfigurations"), notifications.toString());
    }

    @Test
    void theKeyPolicyIsTheSameInBothModes() {
        // CloudFormation updates the key and the bucket at once (the topic needs the key, the bucket the topic:
        // nothing can order them): were S3's grant for the upload topic dropped in Queue mode, a switch to Queue
        // would let S3 fail to publish to the encrypted topic, and lose the notification, until the bucket
        // stops notifying it. KeyPolicyTest proves the grant serves the topic; bound to its ARN, it grants
        // nothing where the topic is not there.
        assertEquals(TEMPLATE.resolve().build().properties("DataKey"), queueMode().properties("DataKey"));
    }

    @Test
    void inQueueModeTheQueueTakesS3NotificationsOfThisBucketAndAccountOnly() {
        ResolvedTemplate stack = queueMode();
        String account = stack.accountId();

        assertTrue(sends(stack, "s3.amazonaws.com", bucketArn(stack), account), "the storage bucket");
        assertFalse(sends(stack, "s3.amazonaws.com", "arn:aws:s3:::another-bucket", account), "another bucket");
        assertFalse(sends(stack, "s3.amazonaws.com", bucketArn(stack), "210987654321"), "another account's bucket");
    }

    @Test
    void theQueuePolicyIsTheSameInBothModesAndTakesEachSourceOnlyFromItsOwnArn() {
        // CloudFormation updates the queue's policy before the bucket: were it one source at a time, switching
        // UploadNotifications would deny the old source's deliveries while the switch runs (SNS drops a delivery
        // that fails with a client error)
        ResolvedTemplate topic = TEMPLATE.resolve().build();
        ResolvedTemplate queue = queueMode();
        assertEquals(topic.properties("IngestQueuePolicy"), queue.properties("IngestQueuePolicy"));

        for (ResolvedTemplate stack : List.of(topic, queue)) {
            String account = stack.accountId();
            String topicArn = "arn:aws:sns:" + stack.region() + ":" + account + ":" + stack.parameter("NamePrefix") + "-uploads";
            assertTrue(sends(stack, "sns.amazonaws.com", topicArn, account), "the stack's upload topic");
            assertTrue(sends(stack, "s3.amazonaws.com", bucketArn(stack), account), "the stack's bucket");
            // each service only for its own source
            assertFalse(sends(stack, "sns.amazonaws.com", topicArn + "-other", account), "another topic");
            assertFalse(sends(stack, "sns.amazonaws.com", bucketArn(stack), account), "SNS naming the bucket");
            assertFalse(sends(stack, "s3.amazonaws.com", topicArn, account), "S3 naming the topic");
            assertFalse(sends(stack, "s3.amazonaws.com", "arn:aws:s3:::another-bucket", account), "another bucket");
        }
        if (topic.exists("UploadTopic")) {
            assertEquals(topic.ref("UploadTopic"), "arn:aws:sns:" + topic.region() + ":" + topic.accountId() + ":"
                    + topic.parameter("NamePrefix") + "-uploads", "the ARN the policy builds is the topic's");
        }
    }

    @Test
    void whatTheTopicCannotDeliverGoesToTheIngestDeadLetterQueueWhichLetsOnlyThatTopicSend() {
        ResolvedTemplate stack = TEMPLATE.resolve().build();
        String dlq = stack.getAtt("IngestDeadLetterQueue", "Arn");

        JsonNode subscription = stack.properties("UploadSubscription");
        assertEquals(dlq, subscription.path("RedrivePolicy").path("deadLetterTargetArn").asText(), subscription.toString());
        // SNS checks that it may send to the DLQ: the policy must be there before the subscription
        JsonNode dependsOn = stack.template().resource("UploadSubscription").json().path("DependsOn");
        assertTrue(dependsOn.toString().contains("IngestDeadLetterQueuePolicy"), dependsOn.toString());
        // the DLQ is encrypted, with a key SNS needs no grant for
        assertTrue(stack.properties("IngestDeadLetterQueue").path("SqsManagedSseEnabled").asBoolean());

        String account = stack.accountId();
        assertTrue(deadLetters(stack, stack.ref("UploadTopic"), account), "the upload topic");
        assertFalse(deadLetters(stack, stack.ref("ReportTopic"), account), "another topic of the stack");
        assertFalse(deadLetters(stack, "arn:aws:sns:" + stack.region() + ":210987654321:" + stack.parameter("NamePrefix")
                + "-uploads", "210987654321"), "another account's topic");
    }

    @Test
    void theBucketWaitsForItsDestinationsPolicyInBothModes() {
        // S3 checks that it may send when the notification is set: the destination's policy must exist first
        for (ResolvedTemplate stack : List.of(TEMPLATE.resolve().build(), queueMode())) {
            JsonNode bucket = stack.template().resource("StorageBucket").json();
            List<String> dependsOn = new ArrayList<>();
            JsonNode written = bucket.path("DependsOn");
            (written.isArray() ? written : List.of(written)).forEach(d -> dependsOn.add(d.asText()));
            assertTrue(dependsOn.contains("IngestQueuePolicy"), dependsOn.toString());
            dependsOn.forEach(id -> assertTrue(stack.exists(id), "DependsOn " + id + " exists in every mode"));
            boolean topic = stack.exists("UploadTopic");
            JsonNode metadata = stack.resolve(bucket.path("Metadata"));
            // and, in Topic mode, for the topic's subscription: SNS drops what a topic without subscribers is
            // sent, so a switch to Topic must not point the bucket at the topic before it delivers to the queue
            for (String destination : List.of("UploadTopicPolicy", "UploadSubscription")) {
                assertEquals(topic, metadata.has(destination), metadata.toString());
                if (topic) {
                    assertEquals(stack.ref(destination), metadata.path(destination).asText());
                }
            }
        }
    }

    /** The events of the configurations, each of which must go to {@code destination}. */
    private static List<String> events(JsonNode configurations, String field, String destination) {
        List<String> events = new ArrayList<>();
        for (JsonNode c : configurations) {
            assertEquals(destination, c.path(field).asText(), c.toString());
            events.add(c.path("Event").asText());
        }
        return events;
    }

    /** Whether the ingest queue's policy lets a service send for a source ARN of an account. */
    private static boolean sends(ResolvedTemplate stack, String service, String sourceArn, String sourceAccount) {
        String queue = stack.getAtt("IngestQueue", "Arn");
        Request send = new Request(service, "sqs:SendMessage", queue,
                Map.of("aws:SourceArn", List.of(sourceArn), "aws:SourceAccount", List.of(sourceAccount)));
        return Decision.evaluate(new StackPolicies(stack).resource(queue), send).allowed();
    }

    /** Whether the ingest DLQ's policy lets SNS send for a topic. */
    private static boolean deadLetters(ResolvedTemplate stack, String topicArn, String sourceAccount) {
        String dlq = stack.getAtt("IngestDeadLetterQueue", "Arn");
        Request send = new Request("sns.amazonaws.com", "sqs:SendMessage", dlq,
                Map.of("aws:SourceArn", List.of(topicArn), "aws:SourceAccount", List.of(sourceAccount)));
        return Decision.evaluate(new StackPolicies(stack).resource(dlq), send).allowed();
    }

    private static String bucketArn(ResolvedTemplate stack) {
        return "arn:aws:s3:::" + stack.ref("StorageBucket");
    }
}
