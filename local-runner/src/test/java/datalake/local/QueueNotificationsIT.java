package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.emulators.SqsLambdaPoller;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The template with {@code UploadNotifications=Queue} (S3 notifies the ingest queue itself, no upload topic),
 * run as deployed: an upload is indexed and its removal unindexes it through the ingester and Lambda's
 * poller, the s3:TestEvent S3 sends when the notification is set is acknowledged, and nothing is
 * dead-lettered.
 */
@ExtendWith(EmulatorsExtension.class)
class QueueNotificationsIT {
    static final Emulators AWS = Emulators.shared();
    private static final long T0 = 1_426_809_600_000L;

    @Test
    void anUploadIsIndexedAndItsRemovalUnindexedWithS3NotifyingTheQueue() throws Exception {
        try (PipelineHarness p = new PipelineHarness(AWS, "queue-notify", Map.of("UploadNotifications", "Queue"), 30)) {
            SqsLambdaPoller poller = p.poller(p.handler(p.ingesterAws.s3(), p.ingesterAws.dynamoDb()));
            List<JsonNode> reports = new ArrayList<>();
            // given the s3:TestEvent S3 sent to the queue when the bucket's notification was set
            p.awaitVisible(p.stack.ingestQueueUrl(), 1, Duration.ofSeconds(20));

            // when a file with datalake metadata is uploaded
            p.put(AWS.s3(), "direct/one.bin", PipelineHarness.metadata("direct", "node", "one", T0, T0 + 1000));

            // then the ingester indexes it
            await(poller, p, reports, () -> p.records().size() == 1, "the upload is indexed");
            Map<String, AttributeValue> record = p.records().get(0);
            assertTrue(record.toString().contains("s3://" + p.bucket() + "/direct/one.bin"), record.toString());

            // and when it is deleted, the record goes
            AWS.s3().deleteObject(r -> r.bucket(p.bucket()).key("direct/one.bin"));
            await(poller, p, reports, () -> p.records().isEmpty(), "the removal unindexes it");

            // and every message was a success (the s3:TestEvent among them), none dead-lettered
            assertTrue(reports.size() >= 3, reports.toString());
            assertTrue(reports.stream().allMatch(r -> r.path("status").asText().equals("success")), reports.toString());
            poller.pollOnce(1);
            assertEquals(0, p.visibleMessages(p.stack.deadLetterQueueUrl()), "nothing dead-lettered");
            assertEquals(0, p.visibleMessages(p.stack.ingestQueueUrl()), "nothing left on the ingest queue");
        }
    }

    /** Polls as Lambda would until the condition holds, keeping the reports the ingester publishes. */
    private static void await(SqsLambdaPoller poller, PipelineHarness p, List<JsonNode> reports, BooleanSupplier done,
            String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what + " within 30 s; reports " + reports);
            poller.pollOnce(1);
            p.drain(p.reportQueueUrl, 0).forEach(m -> reports.add(PipelineHarness.parse(m.body())));
        }
        p.drain(p.reportQueueUrl, 1).forEach(m -> reports.add(PipelineHarness.parse(m.body())));
    }
}
