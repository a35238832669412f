package datalake.emulators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * moto really delivers the S3 notifications of the template's stack: through SNS raw (as the template
 * subscribes), straight to SQS (UploadNotifications=Queue), and, as a test-side change, enveloped; and which removals it notifies
 * (a delete in an unversioned bucket), and which it does not (a delete marker in the template's versioned
 * bucket): the tests that need the others put on the queue the notification AWS sends.
 */
@ExtendWith(EmulatorsExtension.class)
class NotificationsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String METADATA = "{\"version\":0,\"what\":\"syslog\"}";

    @Test
    void objectCreatedGoesStraightToTheQueue(Emulators aws) throws Exception {
        DatalakeStack stack = DatalakeStack.builder(aws).prefix(DatalakeStack.uniquePrefix("direct")).queueNotifications().build();

        String body = putAndAwait(aws, stack, "direct/file 1.txt");

        assertObjectCreated(JSON.readTree(body), stack, "direct/file 1.txt");
    }

    @Test
    void objectCreatedGoesThroughTheTopicRawAsTheTemplateSubscribes(Emulators aws) throws Exception {
        DatalakeStack stack = DatalakeStack.unique(aws, "raw");

        String body = putAndAwait(aws, stack, "raw.txt");

        assertObjectCreated(JSON.readTree(body), stack, "raw.txt");
    }

    @Test
    void objectCreatedGoesThroughTheTopicInAnSnsEnvelope(Emulators aws) throws Exception {
        DatalakeStack stack = DatalakeStack.unique(aws, "enveloped");
        stack.envelopeUploads();

        String body = putAndAwait(aws, stack, "enveloped.txt");

        JsonNode envelope = JSON.readTree(body);
        assertEquals("Notification", envelope.path("Type").asText());
        assertEquals(stack.uploadTopicArn(), envelope.path("TopicArn").asText());
        assertObjectCreated(JSON.readTree(envelope.path("Message").asText()), stack, "enveloped.txt");
    }

    @Test
    void aDeleteIsNotifiedAsObjectRemovedDelete(Emulators aws) throws Exception {
        DatalakeStack stack = DatalakeStack.builder(aws).prefix(DatalakeStack.uniquePrefix("removed")).unversionedBucket()
                .queueNotifications().build();
        putAndAwait(aws, stack, "gone soon.txt");

        aws.s3().deleteObject(r -> r.bucket(stack.bucket()).key("gone soon.txt"));

        JsonNode record = JSON.readTree(Messages.awaitMessage(aws.sqs(), stack.ingestQueueUrl(),
                body -> body.contains("ObjectRemoved"), Duration.ofSeconds(20)).body()).path("Records").path(0);
        assertEquals("ObjectRemoved:Delete", record.path("eventName").asText());
        assertEquals("gone soon.txt", URLDecoder.decode(record.path("s3").path("object").path("key").asText(),
                StandardCharsets.UTF_8));
    }

    @Test
    void aDeleteMarkerIsNotNotifiedByMotoThoughAwsNotifiesIt(Emulators aws) throws Exception {
        // Given the template's bucket, versioned
        DatalakeStack stack = DatalakeStack.builder(aws).prefix(DatalakeStack.uniquePrefix("marker")).queueNotifications().build();
        putAndAwait(aws, stack, "marked.txt");

        String marker = aws.s3().deleteObject(r -> r.bucket(stack.bucket()).key("marked.txt")).versionId();

        assertTrue(marker != null && !marker.isEmpty(), "a versioned bucket answers the delete marker's version");
        assertTrue(aws.sqs().receiveMessage(r -> r.queueUrl(stack.ingestQueueUrl()).waitTimeSeconds(2)
                .maxNumberOfMessages(10)).messages().stream().noneMatch(m -> m.body().contains("ObjectRemoved")),
                "moto 5.2.5 sends no ObjectRemoved:DeleteMarkerCreated; if it starts to, the tests can use it");
    }

    private static String putAndAwait(Emulators aws, DatalakeStack stack, String key) {
        aws.s3().putObject(r -> r.bucket(stack.bucket()).key(key).metadata(Map.of("datalake", METADATA)),
                RequestBody.fromString("payload"));
        // Configuring the notification also sends an s3:TestEvent first; skip it.
        Message message = Messages.awaitMessage(aws.sqs(), stack.ingestQueueUrl(),
                body -> body.contains("ObjectCreated"), Duration.ofSeconds(20));
        return message.body();
    }

    private static void assertObjectCreated(JsonNode event, DatalakeStack stack, String key) {
        JsonNode record = event.path("Records").path(0);
        assertTrue(record.path("eventVersion").asText().startsWith("2."), event.toString());
        assertEquals("ObjectCreated:Put", record.path("eventName").asText());
        assertEquals(stack.bucket(), record.path("s3").path("bucket").path("name").asText());
        // Keys arrive form-URL-encoded; moto also encodes '/', which AWS leaves alone: decoding handles both.
        assertEquals(key, URLDecoder.decode(record.path("s3").path("object").path("key").asText(), StandardCharsets.UTF_8));
        assertFalse(record.path("s3").path("object").path("size").isMissingNode());
    }
}
