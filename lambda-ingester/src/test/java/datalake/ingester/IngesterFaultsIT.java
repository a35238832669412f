package datalake.ingester;

import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.ingester.IngesterHarness.ReceivedReport;
import datalake.records.Record;
import datalake.records.StatusReport;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.KmsAccessDeniedException;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The faults of issue 7 that IngesterIT and IngesterScenarios do not cover, against moto and dynalite,
 * each asserting the final state: throttling (UnprocessedItems), SNS unreachable, the same
 * notification three times, and Put, Copy, Put of one key handled out of order.
 */
@ExtendWith(EmulatorsExtension.class)
class IngesterFaultsIT {
        static final Emulators AWS = Emulators.shared();
    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
    }

    private IngesterHarness stack(String hint) {
        IngesterHarness s = IngesterHarness.create(Emulators.shared(), hint);
        closing.add(s);
        return s;
    }

    /** The AWS ingester on the given DynamoDB and SNS clients, logging into {@code s.logLines}. */
    private Ingester ingester(IngesterHarness s, DynamoDbClient dynamoDb, SnsClient sns) {
        IngesterConfig config = s.config();
        Ingester ingester = Ingester.forAws(config, new IngesterClients(s.ingesterAws.s3(), dynamoDb, sns, s.ingesterAws.sqs()))
                .telemetry(new Telemetry(s.logLines::add, Clock.systemUTC()))
                .functionName("ingester-faults-it")
                .build();
        closing.add(ingester);
        return ingester;
    }

    /** One invocation with a given time budget; acknowledged messages are deleted, as Lambda does. */
    private static Set<String> invoke(IngesterHarness s, Ingester ingester, List<Message> batch, Duration budget) {
        List<SQSEvent.SQSMessage> messages = new ArrayList<>();
        for (Message m : batch) {
            SQSEvent.SQSMessage message = new SQSEvent.SQSMessage();
            message.setMessageId(m.messageId());
            message.setReceiptHandle(m.receiptHandle());
            message.setBody(m.body());
            message.setEventSource("aws:sqs");
            messages.add(message);
        }
        Set<String> failed = ingester.handle(messages, Deadline.after(Clock.systemUTC(), budget), null)
                .getBatchItemFailures().stream().map(f -> f.getItemIdentifier()).collect(Collectors.toSet());
        for (Message m : batch) {
            if (!failed.contains(m.messageId())) {
                AWS.sqs().deleteMessage(r -> r.queueUrl(s.stack.ingestQueueUrl()).receiptHandle(m.receiptHandle()));
            }
        }
        return failed;
    }

    @Test
    void throttlingThatPersistsIsRetriedWithBackoffThenHandedBackInsideTheBudget() {
        // given a table whose every BatchWriteItem answers all its items as UnprocessedItems
        IngesterHarness s = stack("throttle-persists");
        Throttle throttle = new Throttle(Integer.MAX_VALUE);
        DynamoDbClient throttled = s.ingesterAws.dynamoDbClients().build(DynamoDbClient.builder(),
                o -> o.addExecutionInterceptor(throttle));
        closing.add(throttled);
        Ingester ingester = ingester(s, throttled, s.ingesterAws.sns());
        s.put("busy.log", metadata("busy", START, null));
        List<Message> batch = s.receive(1);

        // when the invocation has two seconds
        long started = System.nanoTime();
        Set<String> retried = invoke(s, ingester, batch, Duration.ofSeconds(2));
        long tookMillis = (System.nanoTime() - started) / 1_000_000;

        // then it retried with growing delays, stopped inside the budget, and handed the message back unreported
        assertEquals(Set.of(batch.get(0).messageId()), retried);
        assertTrue(throttle.calls.get() >= 3, "retried several times: " + throttle.calls.get());
        assertTrue(tookMillis < 2_000, "stopped inside the budget: " + tookMillis + " ms");
        assertTrue(s.logLines.stream().anyMatch(l -> l.contains("\"error_kind\":\"TimeBudget\"")), String.join("\n", s.logLines));
        s.assertEmpty(s.reportQueueUrl);
        s.assertEmpty(s.stack.deadLetterQueueUrl());

        // when the throttling ends and SQS delivers the message again
        throttle.remaining.set(0);
        s.expireVisibility(batch);
        assertEquals(Set.of(), invoke(s, ingester, s.receive(1), Duration.ofSeconds(10)));

        // then the file is indexed once and reported once
        assertEquals(List.of("busy"), s.records().stream().map(r -> r.metadata().id()).toList());
        assertEquals(StatusReport.Status.SUCCESS, s.reports(1).get(0).report().status());
        s.assertEmpty(s.stack.ingestQueueUrl());
    }

    @Test
    void throttlingThatPassesIsAbsorbedByTheBackoffInOneInvocation() {
        IngesterHarness s = stack("throttle-passes");
        Throttle throttle = new Throttle(3);
        DynamoDbClient throttled = s.ingesterAws.dynamoDbClients().build(DynamoDbClient.builder(),
                o -> o.addExecutionInterceptor(throttle));
        closing.add(throttled);
        s.put("a.log", metadata("a", START, null));
        s.put("b.log", metadata("b", START, null));

        Set<String> retried = invoke(s, ingester(s, throttled, s.ingesterAws.sns()), s.receive(2), Duration.ofSeconds(10));

        assertEquals(Set.of(), retried);
        assertEquals(4, throttle.calls.get(), "three throttled answers, then the write");
        assertEquals(List.of("a", "b"), s.records().stream().map(r -> r.metadata().id()).sorted().toList());
        assertEquals(2, s.reports(2).size());
    }

    @Test
    void snsUnreachableStillWritesTheRecordsAndRetriesNothing() {
        // given SNS refusing connections (PublishBatch to a closed port)
        IngesterHarness s = stack("sns-down");
        FaultInjector faults = new FaultInjector();
        faults.fail("PublishBatch");
        faults.fail("Publish");
        SnsClient sns = s.ingesterAws.s3Clients().build(SnsClient.builder(),
                o -> o.addExecutionInterceptor(faults).retryStrategy(RetryMode.STANDARD));
        closing.add(sns);
        s.put("f.log", metadata("f", START, null));
        s.put("g.log", metadata("g", START, null));

        // when
        Set<String> retried = invoke(s, ingester(s, s.ingesterAws.dynamoDb(), sns), s.receive(2), Duration.ofSeconds(30));

        // then both records are written once, no message comes back for the report alone
        assertEquals(Set.of(), retried);
        assertTrue(faults.injected.get() > 0);
        assertEquals(List.of("f", "g"), s.records().stream().map(r -> r.metadata().id()).sorted().toList());
        s.assertEmpty(s.stack.ingestQueueUrl());
        s.assertEmpty(s.reportQueueUrl);
        // and the failure is logged for each message and counted in the metrics
        assertEquals(2, s.logLines.stream().filter(l -> l.contains("report not published")).count(), String.join("\n", s.logLines));
        assertTrue(s.logLines.stream().anyMatch(l -> l.contains("\"ReportsFailed\":2")), String.join("\n", s.logLines));
    }

    @Test
    void aReportTheKeyRefusesIsCountedAndItsMessageIsNotRetried() {
        // given SNS answering as it does when the topic's KMS key refuses the publisher (no emulator has
        // KMS: the answer is injected), as every report was refused before the key policy delegated to IAM
        IngesterHarness s = stack("key-refuses");
        SnsClient sns = s.ingesterAws.s3Clients().build(SnsClient.builder(), o -> o.addExecutionInterceptor(new KeyRefuses()));
        closing.add(sns);
        s.put("f.log", metadata("f", START, null));

        // when
        Set<String> retried = invoke(s, ingester(s, s.ingesterAws.dynamoDb(), sns), s.receive(1), Duration.ofSeconds(30));

        // then the file is indexed and its message acknowledged, not retried (docs/DESIGN.md, "Failure policy")
        assertEquals(Set.of(), retried);
        assertEquals(List.of("f"), s.records().stream().map(r -> r.metadata().id()).toList());
        s.assertEmpty(s.stack.ingestQueueUrl());
        // and the report is not silently lost: logged with the reason, and counted in the metric the
        // template's ReportsNotPublishedAlarm watches (ReportsAlarmTest)
        assertTrue(s.logLines.stream().anyMatch(l -> l.contains("report not published") && l.contains("KMS")),
                String.join("\n", s.logLines));
        assertTrue(s.logLines.stream().anyMatch(l -> l.contains("\"ReportsFailed\":1")), String.join("\n", s.logLines));
    }

    /** SNS's answer when the topic's key may not be used by the publisher. */
    private static final class KeyRefuses implements ExecutionInterceptor {
        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            String message = "User: arn:aws:sts::123456789012:assumed-role/ingester is not authorized to perform:"
                    + " kms:GenerateDataKey on the topic's key (Service: AWSKMS; Status Code: 400; Error Code: AccessDeniedException)";
            throw KmsAccessDeniedException.builder().statusCode(400).message(message)
                    .awsErrorDetails(AwsErrorDetails.builder().serviceName("Sns").errorCode("KMSAccessDenied")
                            .errorMessage(message).build())
                    .build();
        }
    }

    @Test
    void theSameNotificationDeliveredThreeTimesIsOneRecordAndThreeReports() {
        // given one upload, and its notification delivered twice more (SQS is at least once)
        IngesterHarness s = stack("three-times");
        s.put("once.log", metadata("once", START, START + TestFiles.DAY));
        Message first = s.receive(1).get(0);
        s.send(first.body());
        s.send(first.body());

        // when the first delivery is handled alone, then the two others together in one batch
        assertEquals(Set.of(), s.handle(List.of(first)));
        assertEquals(Set.of(), s.handle(s.receive(2)));

        // then the file's two bucket records are in the table once, and each delivery reported the same
        List<Record> records = s.records();
        assertEquals(2, records.size());
        assertTrue(records.stream().allMatch(r -> r.metadata().id().equals("once")));
        List<ReceivedReport> reports = s.reports(3);
        assertEquals(1, reports.stream().map(r -> r.report().records()).distinct().count());
        assertTrue(reports.stream().allMatch(r -> r.report().status() == StatusReport.Status.SUCCESS));
        s.assertEmpty(s.stack.deadLetterQueueUrl());
        s.assertEmpty(s.stack.ingestQueueUrl());
        assertEquals("once", s.latest("syslog", "webserver02").metadata().id());
    }

    @Test
    void putCopyPutOfOneKeyHandledInReverseOrderEndsWithTheObjectAsItIs() {
        // given key k written three times: a put (id a), a copy of another object (id b), a put (id c)
        IngesterHarness s = stack("put-copy-put");
        s.put("other.log", metadata("b", START, null));
        s.put("k.log", metadata("a", START, null));
        AWS.s3().copyObject(r -> r.sourceBucket(s.bucket()).sourceKey("other.log")
                .destinationBucket(s.bucket()).destinationKey("k.log"));
        s.put("k.log", metadata("c", START, null));
        List<Message> notifications = s.receive(4);
        List<Message> ofK = notifications.stream().filter(m -> m.body().contains("k.log")).toList();
        assertEquals(3, ofK.size());

        // when they are handled one by one, newest first (delivery is unordered)
        for (int i = ofK.size() - 1; i >= 0; i--) {
            assertEquals(Set.of(), s.handle(List.of(ofK.get(i))));
        }
        assertEquals(Set.of(), s.handle(notifications.stream().filter(m -> !ofK.contains(m)).toList()));

        // then k is indexed as it is now (c), the copy's source keeps its own record, and a left nothing
        Map<String, String> urlById = new TreeMap<>();
        s.records().forEach(r -> urlById.put(r.metadata().id(), r.url()));
        assertEquals(Map.of("b", "s3://" + s.bucket() + "/other.log", "c", "s3://" + s.bucket() + "/k.log"), urlById);
        assertEquals(4, s.reports(4).size());
        s.assertEmpty(s.stack.deadLetterQueueUrl());
    }

    /** Answers BatchWriteItem with every item unprocessed, {@code remaining} times, as a throttled table does. */
    private static final class Throttle implements ExecutionInterceptor {
        final AtomicInteger remaining;
        final AtomicInteger calls = new AtomicInteger();

        Throttle(int times) {
            this.remaining = new AtomicInteger(times);
        }

        @Override
        public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
            if (!(context.request() instanceof BatchWriteItemRequest request)) {
                return context.response();
            }
            calls.incrementAndGet();
            if (remaining.getAndUpdate(r -> r > 0 ? r - 1 : 0) <= 0) {
                return context.response();
            }
            return ((BatchWriteItemResponse) context.response()).toBuilder()
                    .unprocessedItems(request.requestItems()).build();
        }
    }
}
