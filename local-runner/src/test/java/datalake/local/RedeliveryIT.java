package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import datalake.emulators.DatalakeStack;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.emulators.SqsLambdaPoller;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Faults that only redelivery heals, with real redelivery: {@link SqsLambdaPoller} over moto's SQS
 * (visibility timeout, ApproximateReceiveCount, redrive policy to the DLQ), the ingester as deployed.
 * Each test asserts the final state: the table, the reports, the DLQ and the ingest queue.
 */
@ExtendWith(EmulatorsExtension.class)
class RedeliveryIT {
        static final Emulators AWS = Emulators.shared();
    private static final long DAY = 86_400_000L;
    private static final long T0 = 1_426_809_600_000L;

    @Test
    void dynamoDbGoingDownInTheMiddleOfABatchLosesAndDuplicatesNothing() throws Exception {
        // given ten uploads of three day buckets each: one batch of ten is 30 records, two BatchWriteItem calls
        try (PipelineHarness p = new PipelineHarness(AWS, "ddb-outage", Map.of(), 2)) {
            Outage outage = new Outage(p);
            DynamoDbClient dynamoDb = p.ingesterAws.dynamoDbClients().build(DynamoDbClient.builder(),
                    o -> o.addExecutionInterceptor(outage).retryStrategy(RetryMode.STANDARD));
            SqsLambdaPoller poller = p.poller(p.handler(p.ingesterAws.s3(), dynamoDb));
            for (int i = 0; i < 10; i++) {
                p.put(AWS.s3(), "outage/" + i + ".bin",
                        PipelineHarness.metadata("outage", "node", "f" + i, T0 + i * 1000, T0 + 2 * DAY + i * 1000));
            }
            p.awaitVisible(p.stack.ingestQueueUrl(), 10, Duration.ofSeconds(20));

            // when dynalite stops right before the batch's second BatchWriteItem, and comes back
            // (with the data it had: DynamoDB is durable, dynalite in memory is not) after the invocation
            List<JsonNode> reports = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (reports.size() < 10 && System.nanoTime() < deadline) {
                poller.pollOnce(1);
                if (outage.down.get()) {
                    outage.restore();
                }
                p.drain(p.reportQueueUrl, 0).forEach(m -> addFileReport(reports, m));
            }
            Thread.sleep(3000); // anything still to come (a duplicate delivery) would arrive now
            poller.pollOnce(1);
            p.drain(p.reportQueueUrl, 1).forEach(m -> addFileReport(reports, m));

            // then the outage happened mid-batch and sent messages back
            assertTrue(outage.restored.get(), "dynalite was stopped and restarted");
            assertTrue(outage.writtenBeforeOutage > 0 && outage.writtenBeforeOutage < 30,
                    "part of the batch was written before the outage: " + outage.writtenBeforeOutage);
            assertTrue(poller.failedItems() > 0, "messages were handed back for redelivery");
            // and every file is in the table once per bucket, nothing missing
            Map<String, Integer> itemsPerFile = new TreeMap<>();
            for (Map<String, AttributeValue> item : p.records()) {
                itemsPerFile.merge(item.get("metadata").m().get("id").s(), 1, Integer::sum);
            }
            Map<String, Integer> expected = new TreeMap<>();
            for (int i = 0; i < 10; i++) {
                expected.put("f" + i, 3);
            }
            assertEquals(expected, itemsPerFile);
            // and each message was reported once, as a success; nothing dead-lettered or left on the queue
            assertEquals(10, reports.size());
            assertTrue(reports.stream().allMatch(r -> r.path("status").asText().equals("success")), reports.toString());
            assertEquals(10, reports.stream().map(r -> r.path("records").get(0).path("url").asText()).distinct().count());
            assertEquals(List.of(), p.drain(p.stack.deadLetterQueueUrl(), 1));
            assertEquals(0, p.visibleMessages(p.stack.ingestQueueUrl()));
            dynamoDb.close();
        }
    }

    @Test
    void accessDeniedOnTheObjectIsRetriedThenDeadLetteredWithItsReasonOnTheLastReceive() throws Exception {
        // given a bucket whose HeadObject answers 403 for one key, and a queue that allows two receives
        // (the ingester is told so, as template.yaml tells it: DATALAKE_MAX_RECEIVE_COUNT)
        try (PipelineHarness p = new PipelineHarness(AWS, "access-denied",
                Map.of("IngestMaxReceiveCount", "2"), 1)) {
            S3Client s3 = p.ingesterAws.s3Clients().build(S3Client.builder().forcePathStyle(true),
                    o -> o.addExecutionInterceptor(new Forbidden("secret/")));
            SqsLambdaPoller poller = p.poller(p.handler(s3, p.ingesterAws.dynamoDb()));
            p.put(AWS.s3(), "secret/denied.bin", PipelineHarness.metadata("denied", "node", "denied", T0, null));
            p.put(AWS.s3(), "open/fine.bin", PipelineHarness.metadata("denied", "node", "fine", T0, null));
            p.awaitVisible(p.stack.ingestQueueUrl(), 2, Duration.ofSeconds(20));

            // when the poller runs until the denied message has left the queue
            List<Message> dead = new ArrayList<>();
            List<JsonNode> reports = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(45).toNanos();
            while (dead.isEmpty() && System.nanoTime() < deadline) {
                poller.pollOnce(1);
                p.drain(p.reportQueueUrl, 0).forEach(m -> addFileReport(reports, m));
                dead.addAll(p.drain(p.stack.deadLetterQueueUrl(), 0));
            }
            p.drain(p.reportQueueUrl, 1).forEach(m -> addFileReport(reports, m));

            // then AccessDenied is transient (docs/DESIGN.md, "Failure policy": a permission is fixed by a deploy):
            // handed back on its first receive; on its last the ingester dead-lettered it, body unchanged,
            // with its reason, and reported it (the redrive policy would have given neither)
            assertEquals(1, dead.size(), "the denied message reached the DLQ");
            assertTrue(dead.get(0).body().contains("secret%2Fdenied.bin"), dead.get(0).body());
            assertEquals("AwsError", dead.get(0).messageAttributes().get("error_kind").stringValue());
            assertEquals(1, poller.failedItems(), "handed back on its first receive only");
            // and the other file of the same batch is indexed and reported; the denied one reported as an error
            List<String> ids = p.records().stream().map(i -> i.get("metadata").m().get("id").s()).toList();
            assertEquals(List.of("fine"), ids);
            assertEquals(2, reports.size(), reports.toString());
            assertEquals(1, reports.stream().filter(r -> r.path("status").asText().equals("success")).count());
            assertEquals(1, reports.stream().filter(r -> r.path("status").asText().equals("error")).count());
            assertTrue(p.logLines.stream().anyMatch(l -> l.contains("AwsError") && l.contains("403")),
                    String.join("\n", p.logLines));
            assertEquals(0, p.visibleMessages(p.stack.ingestQueueUrl()));
            s3.close();
        }
    }

    private static void addFileReport(List<JsonNode> reports, Message message) {
        JsonNode report = PipelineHarness.parse(message.body());
        if (!report.path("records").isEmpty() || !report.path("status").asText().equals("success")) {
            reports.add(report);
        }
    }

    /**
     * Stops dynalite right before the second BatchWriteItem of the run, after copying both tables
     * (DynamoDB keeps data through an outage, dynalite in memory does not); {@link #restore()}
     * restarts it on the same port, recreates the tables and puts the copy back.
     */
    private static final class Outage implements ExecutionInterceptor {
        private final PipelineHarness p;
        private final AtomicInteger batchWrites = new AtomicInteger();
        final AtomicBoolean down = new AtomicBoolean();
        final AtomicBoolean restored = new AtomicBoolean();
        private final Map<String, List<Map<String, AttributeValue>>> snapshot = new HashMap<>();
        int writtenBeforeOutage;

        Outage(PipelineHarness p) {
            this.p = p;
        }

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if ("BatchWriteItem".equals(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))
                    && batchWrites.incrementAndGet() == 2 && down.compareAndSet(false, true)) {
                for (String table : List.of(p.stack.recordsTable(), p.stack.latestTable())) {
                    snapshot.put(table, p.items(table));
                }
                writtenBeforeOutage = (int) snapshot.get(p.stack.recordsTable()).stream()
                        .filter(item -> !datalake.dynamodb.ObjectItems.isObjectItem(item)).count();
                AWS.dynalite().stop();
            }
        }

        void restore() throws InterruptedException {
            if (restored.get()) {
                return;
            }
            Thread.sleep(500);
            AWS.dynalite().start();
            DatalakeStack.builder(AWS).prefix(p.stack.prefix()).tablesOnly().build();
            snapshot.forEach((table, items) -> items.forEach(item -> AWS.dynamoDb().putItem(r -> r.tableName(table).item(item))));
            restored.set(true);
        }
    }

    /** Answers 403 to HeadObject of keys under a prefix, as S3 does without s3:GetObject on them. */
    private record Forbidden(String prefix) implements ExecutionInterceptor {
        @Override
        public SdkHttpResponse modifyHttpResponse(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
            SdkRequest request = context.request();
            if (request instanceof HeadObjectRequest head && head.key().startsWith(prefix)) {
                return context.httpResponse().toBuilder().statusCode(403).statusText("Forbidden").build();
            }
            return context.httpResponse();
        }
    }
}
