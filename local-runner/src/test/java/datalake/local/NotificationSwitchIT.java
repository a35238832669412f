package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.dynamodb.RecordItems;
import datalake.emulators.DatalakeStack;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.emulators.SqsLambdaPoller;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Switching {@code UploadNotifications} on a live stack, Topic to Queue and back, redeployed over the
 * same resources as {@code sam deploy} updates them, while files keep being uploaded: every file uploaded
 * before, during and after the switches is indexed, and nothing is dead-lettered. (moto does not evaluate
 * queue policies; that they allow both sources throughout is UploadNotificationsTest's.)
 */
@ExtendWith(EmulatorsExtension.class)
class NotificationSwitchIT {
    static final Emulators AWS = Emulators.shared();
    private static final long T0 = 1_426_809_600_000L;

    @Test
    void filesUploadedAroundASwitchFromTopicToQueueAndBackAreAllIndexed() throws Exception {
        try (PipelineHarness p = new PipelineHarness(AWS, "switch", Map.of(), 30)) {
            SqsLambdaPoller poller = p.poller(p.handler(p.ingesterAws.s3(), p.ingesterAws.dynamoDb()));
            ConcurrentLinkedQueue<String> uploaded = new ConcurrentLinkedQueue<>();
            upload(p, uploaded, "before");

            // when files keep being uploaded while the stack switches to Queue and back to Topic
            AtomicBoolean switching = new AtomicBoolean(true);
            ExecutorService uploader = Executors.newSingleThreadExecutor();
            try {
                Future<?> during = uploader.submit(() -> {
                    int n = 0;
                    while (switching.get() || n < 3) {
                        upload(p, uploaded, "during-" + n++);
                        Thread.sleep(50);
                    }
                    return null;
                });
                redeploy(p, "Queue");
                assertNotifies(p, "Queue");
                upload(p, uploaded, "queue-mode");
                redeploy(p, "Topic");
                assertNotifies(p, "Topic");
                switching.set(false);
                during.get();
            } finally {
                uploader.shutdownNow();
            }
            upload(p, uploaded, "after");

            // then each of them is indexed, once
            Set<String> expected = new TreeSet<>(uploaded);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!indexed(p).equals(expected) && System.nanoTime() < deadline) {
                poller.pollOnce(1);
            }
            assertEquals(expected, indexed(p));
            assertTrue(expected.size() >= 7, expected.toString());
            // and nothing went to the DLQ nor is left on the ingest queue
            poller.pollOnce(1);
            assertEquals(0, p.visibleMessages(p.stack.deadLetterQueueUrl()), "nothing dead-lettered");
            assertEquals(0, p.visibleMessages(p.stack.ingestQueueUrl()), "nothing left on the ingest queue");
        }
    }

    /** The same stack (prefix, resources) deployed again with another UploadNotifications. */
    private static void redeploy(PipelineHarness p, String notifications) {
        DatalakeStack.builder(AWS).prefix(p.stack.prefix()).parameter("UploadNotifications", notifications)
                .unversionedBucket().build();
    }

    private static void assertNotifies(PipelineHarness p, String mode) {
        var configuration = AWS.s3().getBucketNotificationConfiguration(r -> r.bucket(p.bucket()));
        assertEquals(mode.equals("Queue") ? 3 : 0, configuration.queueConfigurations().size(), configuration.toString());
        assertEquals(mode.equals("Topic") ? 3 : 0, configuration.topicConfigurations().size(), configuration.toString());
    }

    private static void upload(PipelineHarness p, ConcurrentLinkedQueue<String> uploaded, String id) {
        String key = "switch/" + id + ".bin";
        p.put(AWS.s3(), key, PipelineHarness.metadata("switch", "node", id, T0, T0 + 1000));
        uploaded.add("s3://" + p.bucket() + "/" + key);
    }

    /** The URLs the records table holds records of. */
    private static Set<String> indexed(PipelineHarness p) {
        List<String> urls = new ArrayList<>();
        p.records().forEach(r -> urls.add(r.get(RecordItems.URL).s()));
        Set<String> distinct = new TreeSet<>(urls);
        assertEquals(urls.size(), distinct.size(), "one record per file: " + urls);
        return distinct;
    }
}
