package datalake.ingester;

import static datalake.ingester.TestFiles.DAY;
import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.emulators.AwsEndpoints;
import datalake.ingester.IngesterHarness.ReceivedReport;
import datalake.records.DatalakeJson;
import datalake.records.Record;
import datalake.records.StatusReport;
import datalake.records.TimeBuckets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The ingester's integration scenarios, written once and run against every emulator backend: real
 * objects put to S3, the notifications S3 really sent taken from SQS, the handler invoked with that
 * batch, then the table, the latest table, the reports and the DLQ inspected.
 */
abstract class IngesterScenarios {
    private static final long HOUR = 3_600_000L;
    private final List<IngesterHarness> stacks = new ArrayList<>();
    private String testName = "ingester";

    abstract AwsEndpoints backend();

    @BeforeEach
    void name(TestInfo info) {
        testName = info.getTestMethod().map(java.lang.reflect.Method::getName).orElse("ingester");
    }

    @AfterEach
    void closeStacks() {
        stacks.forEach(IngesterHarness::close);
    }

    IngesterHarness stack(StackSetup options) {
        IngesterHarness stack = IngesterHarness.create(backend(), testName, options);
        stacks.add(stack);
        return stack;
    }

    IngesterHarness stack() {
        return stack(StackSetup.defaults());
    }

    static long millis(HeadObjectResponse head) {
        return head.lastModified().toEpochMilli();
    }

    static Stream<Arguments> routes() {
        return Stream.of(
                Arguments.of("S3 -> SNS (envelope) -> SQS", StackSetup.defaults().withRoute(StackSetup.Route.TOPIC_ENVELOPED)),
                Arguments.of("S3 -> SNS (raw) -> SQS", StackSetup.defaults()),
                Arguments.of("S3 -> SQS", StackSetup.defaults().withRoute(StackSetup.Route.QUEUE)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("routes")
    void aFileInOneBucketIsIndexedThroughEveryRoute(String route, StackSetup options) {
        // given a file of one hour, uploaded
        IngesterHarness s = stack(options);
        HeadObjectResponse head = s.put("2024/05/14/one.log", metadata("f1", START, START + HOUR));

        // when the notification S3 sent is handled
        Set<String> retried = s.handle(s.receive(1));

        // then one record is in the table, and it is the latest of its what:where
        assertEquals(Set.of(), retried);
        List<Record> records = s.records();
        assertEquals(1, records.size());
        Record record = records.get(0);
        assertEquals("s3://" + s.bucket() + "/2024/05/14/one.log", record.url());
        assertEquals(TimeBuckets.bucketOf(START), record.bucket());
        assertEquals(millis(head), record.createTime());
        assertEquals(head.contentLength(), record.size());
        assertEquals("f1", record.metadata().id());
        assertEquals(record, s.latest("syslog", "webserver02"));
        // and one success report says so, with the attributes subscribers filter on
        ReceivedReport report = s.reports(1).get(0);
        assertEquals(StatusReport.Status.SUCCESS, report.report().status());
        assertEquals(List.of(StatusReport.FileRecord.of(record)), report.report().records());
        assertEquals(Map.of("status", "success", "what", "syslog", "action", "index"), report.attributes());
        assertEquals("index", report.action());
        // and the message is gone from the queue, nothing dead-lettered
        s.assertEmpty(s.stack.ingestQueueUrl());
        s.assertEmpty(s.stack.deadLetterQueueUrl());
    }

    @Test
    void aFileSpanningThreeBucketsHasThreeRecordsAndOneReportEntry() {
        IngesterHarness s = stack();
        long end = (TimeBuckets.bucketOf(START) + 2) * DAY + 5;
        s.put("three-days.log", metadata("f3", START, end));

        assertEquals(Set.of(), s.handle(s.receive(1)));

        List<Record> records = s.records();
        assertEquals(List.of(16514L, 16515L, 16516L), records.stream().map(Record::bucket).sorted().toList());
        records.forEach(r -> assertEquals(end, r.metadata().end()));
        assertEquals(1, s.reports(1).get(0).report().records().size());
        // the latest table holds the record of the start's bucket
        assertEquals(records.stream().filter(r -> r.bucket() == 16514L).findFirst().orElseThrow(),
                s.latest("syslog", "webserver02"));
    }

    @Test
    void nullEndAndNullOrSetWorkIdsAreStoredAsDynamoDbNullsAndKeys() {
        IngesterHarness s = stack();
        s.put("instant.log", metadata("syslog", "webserver02", "instant", START, null, null));
        s.put("job.log", metadata("syslog", "webserver03", "job", START, START + HOUR, "job-42"));

        assertEquals(Set.of(), s.handle(s.receive(2)));

        Map<String, Map<String, AttributeValue>> byId = new HashMap<>();
        s.items().forEach(item -> byId.put(item.get("metadata").m().get("id").s(), item));
        Map<String, AttributeValue> instant = byId.get("instant");
        assertEquals(Boolean.TRUE, instant.get("metadata").m().get("end").nul());
        assertEquals(Boolean.TRUE, instant.get("metadata").m().get("work_id").nul());
        assertEquals("nullinstant:syslog", instant.get("work_id_index_key").s());
        Map<String, AttributeValue> job = byId.get("job");
        assertEquals(Long.toString(START + HOUR), job.get("metadata").m().get("end").n());
        assertEquals("job-42", job.get("metadata").m().get("work_id").s());
        assertEquals("job-42:syslog", job.get("work_id_index_key").s());
        assertEquals("16514:syslog", job.get("time_index_key").s());
        assertEquals("webserver03:job", job.get("range_key").s());
        assertEquals(2, s.reports(2).size());
    }

    @Test
    void fieldsBeyondTheNineAreStoredReportedAndKeptInTheLatestTable() {
        // given a header with fields the Python datalake keeps (its Metadata is a dict), each JSON type
        IngesterHarness s = stack();
        String nine = metadata("extras", START, START + HOUR);
        s.put("extras.log", nine.substring(0, nine.length() - 1) + ",\"data-version\":\"3\",\"tags\":[\"a\",2.5],"
                + "\"ok\":true,\"note\":null,\"quality\":{\"by\":{\"who\":\"qa\"}}}");

        // when its notification is handled
        assertEquals(Set.of(), s.handle(s.receive(1)));

        // then the record's metadata map holds them with their natural DynamoDB types
        Map<String, AttributeValue> stored = s.items().get(0).get("metadata").m();
        assertEquals(AttributeValue.fromS("3"), stored.get("data-version"));
        assertEquals(AttributeValue.fromL(List.of(AttributeValue.fromS("a"), AttributeValue.fromN("2.5"))), stored.get("tags"));
        assertEquals(AttributeValue.fromBool(true), stored.get("ok"));
        assertEquals(AttributeValue.fromNul(true), stored.get("note"));
        assertEquals(AttributeValue.fromM(Map.of("by", AttributeValue.fromM(Map.of("who", AttributeValue.fromS("qa"))))),
                stored.get("quality"));
        // and the latest table's item, the per-object item and the report carry them too
        Map<String, AttributeValue> latest = s.backend.dynamoDb().getItem(r -> r.tableName(s.stack.latestTable())
                .key(Map.of("what_where_key", AttributeValue.fromS("syslog:webserver02"))).consistentRead(true)).item();
        assertEquals(stored, latest.get("metadata").m());
        Record record = s.records().get(0);
        assertEquals(record.metadata(), s.objectEntry("extras.log").metadata());
        String reported = DatalakeJson.toJson(s.reports(1).get(0).report().records().get(0).metadata());
        assertTrue(reported.endsWith(",\"data-version\":\"3\",\"tags\":[\"a\",2.5],\"ok\":true,\"note\":null,"
                + "\"quality\":{\"by\":{\"who\":\"qa\"}}}"), reported);
    }

    @Test
    void keysWithSpacesPlusSignsAndNonAsciiArriveDecoded() {
        IngesterHarness s = stack();
        String key = "données/rapport final + annexe (v2) – 東京.csv";
        s.put(key, metadata("menu", START, null));

        assertEquals(Set.of(), s.handle(s.receive(1)));

        assertEquals("s3://" + s.bucket() + "/" + key, s.records().get(0).url());
        assertEquals("s3://" + s.bucket() + "/" + key, s.reports(1).get(0).report().records().get(0).url());
    }

    @Test
    void theSameObjectTwiceInOneBatchIsWrittenOnceAndReportedTwice() {
        // given one key uploaded twice: two notifications, the second upload's state is what HEAD reads
        IngesterHarness s = stack();
        s.put("twice.log", metadata("first", START, null));
        HeadObjectResponse second = s.put("twice.log", metadata("second", START + HOUR, null));

        // when both notifications are handled in one batch
        assertEquals(Set.of(), s.handle(s.receive(2)));

        // then the table has the object's current state once; both messages report it
        List<Record> records = s.records();
        assertEquals(List.of("second"), records.stream().map(r -> r.metadata().id()).toList());
        assertEquals(millis(second), records.get(0).createTime());
        List<ReceivedReport> reports = s.reports(2);
        assertEquals(reports.get(0).report().records(), reports.get(1).report().records());
        assertEquals("second", reports.get(0).report().records().get(0).metadata().id());
    }

    @Test
    void aPutThenACopyKeepsTheLaterObjectForTheSharedKeys() {
        // given an upload and a copy of it (S3 copies the user metadata: same id, so the same keys)
        IngesterHarness s = stack();
        HeadObjectResponse original = s.put("original.log", metadata("f1", START, START + DAY));
        backendCopy(s, "original.log", "copy.log");
        HeadObjectResponse copy = s.backend.s3().headObject(r -> r.bucket(s.bucket()).key("copy.log"));

        // when both notifications are handled in one batch
        List<Message> batch = s.receive(2);
        assertEquals(Set.of(), s.handle(batch));

        // then each key holds the later object: greater LastModified, else the later message
        String later;
        if (millis(copy) != millis(original)) {
            later = millis(copy) > millis(original) ? "copy.log" : "original.log";
        } else {
            later = batch.get(1).body().contains("copy.log") ? "copy.log" : "original.log";
        }
        List<Record> records = s.records();
        assertEquals(2, records.size());
        for (Record record : records) {
            assertEquals("s3://" + s.bucket() + "/" + later, record.url());
        }
        assertEquals("s3://" + s.bucket() + "/" + later, s.latest("syslog", "webserver02").url());
        // both succeed, each reporting its own object
        Set<String> reported = s.reports(2).stream().map(r -> r.report().records().get(0).url()).collect(Collectors.toSet());
        assertEquals(Set.of("s3://" + s.bucket() + "/original.log", "s3://" + s.bucket() + "/copy.log"), reported);
    }

    private static void backendCopy(IngesterHarness s, String from, String to) {
        s.backend.s3().copyObject(r -> r.sourceBucket(s.bucket()).sourceKey(from)
                .destinationBucket(s.bucket()).destinationKey(to));
    }

    @Test
    void theTestEventS3SendsIsASuccessWithoutRecords() {
        IngesterHarness s = stack();
        Message testEvent = s.receiveTestEvent();

        assertEquals(Set.of(), s.handle(List.of(testEvent)));

        assertEquals(List.of(), s.records());
        ReceivedReport report = s.reports(1).get(0);
        assertEquals(StatusReport.Status.SUCCESS, report.report().status());
        assertEquals(List.of(), report.report().records());
        assertEquals(Map.of("status", "success"), report.attributes());
    }

    @Test
    void everyPermanentErrorIsReportedDeadLetteredAndAcknowledged() {
        // given one good upload, one whose object is gone by the time it is handled (not an error), and
        // one message for each permanent error
        IngesterHarness s = stack();
        s.put("good.log", metadata("good", START, null));
        s.put("no-metadata.log", null);
        s.put("bad-metadata.log", metadata("syslog", "Web Server", "bad", START, null, null));
        s.put("too-long.log", metadata("long", START, START + 40 * DAY));
        s.put("deleted.log", metadata("deleted", START, null));
        List<Message> uploads = s.receive(5);
        s.backend.s3().deleteObject(r -> r.bucket(s.bucket()).key("deleted.log"));
        List<Message> removal = s.receive(1);
        s.send("this is not JSON");
        s.send("{\"hello\":\"world\"}");
        s.send(TestFiles.s3Event("ObjectRestore:Post", s.bucket(), "good.log", "0055AED6DCD9028200"));
        s.send(TestFiles.s3Event("ObjectCreated:Put", "datalake-no-such-bucket-" + System.nanoTime(), "a.log", null));
        List<Message> batch = new ArrayList<>(uploads);
        batch.addAll(s.receive(4));

        // when the nine messages are handled in one batch (the removal's notification waits)
        Set<String> retried = s.handle(batch);

        // then none comes back, the good file is indexed
        assertEquals(Set.of(), retried);
        assertEquals(List.of("good"), s.records().stream().map(r -> r.metadata().id()).toList());
        // and every bad one is in the DLQ, body unchanged, with its reason
        Map<String, String> bodies = new HashMap<>();
        batch.forEach(m -> bodies.put(m.messageId(), m.body()));
        Map<String, Integer> kinds = new HashMap<>();
        for (Message letter : s.deadLetters(7)) {
            String source = letter.messageAttributes().get("source_message_id").stringValue();
            assertEquals(bodies.get(source), letter.body());
            assertTrue(letter.messageAttributes().get("error_message").stringValue().endsWith("."));
            kinds.merge(letter.messageAttributes().get("error_kind").stringValue(), 1, Integer::sum);
        }
        assertEquals(Map.of("MissingMetadata", 1, "InvalidMetadata", 1, "UnsupportedTimeRange", 1, "NoSuchBucket", 1,
                "BadJson", 1, "BadNotification", 1, "UnsupportedS3Event", 1), kinds);
        s.assertEmpty(s.stack.deadLetterQueueUrl());
        // and reported: two successes (the object already gone says so) and seven errors, each with its reason
        List<ReceivedReport> reports = s.reports(9);
        assertEquals(7, reports.stream().filter(r -> r.report().status() == StatusReport.Status.ERROR
                && r.report().message() != null && "error".equals(r.attributes().get("status"))).count());
        assertTrue(reports.stream().anyMatch(r -> r.report().message() != null
                && r.report().message().contains("spans 41 day buckets") && "syslog".equals(r.attributes().get("what"))));
        assertTrue(reports.stream().anyMatch(r -> r.report().status() == StatusReport.Status.SUCCESS
                && r.report().records().isEmpty() && r.report().message() != null
                && r.report().message().contains("deleted.log no longer exists")), reports.toString());
        // the removal's notification is still on the queue
        assertTrue(removal.get(0).body().contains("ObjectRemoved:Delete"));
    }

    @Test
    void aTransientFailureComesBackAndSucceedsOnRedelivery() {
        // given DynamoDB unreachable for BatchWriteItem (an SDK interceptor refuses the connection)
        IngesterHarness s = stack();
        FaultInjector faults = new FaultInjector();
        DynamoDbClient flaky = s.ingesterAws.dynamoDbClients().build(DynamoDbClient.builder(),
                o -> o.addExecutionInterceptor(faults).retryStrategy(RetryMode.STANDARD));
        IngesterHandler handler = s.handler(s.config(), flaky);
        s.put("good.log", metadata("good", START, null));
        s.put("bad.log", null);
        faults.fail("BatchWriteItem");

        // when
        List<Message> first = s.receive(2);
        Set<String> retried = s.handle(handler, first);

        // then the writable message comes back, unreported; the permanent one is settled anyway
        Message good = first.stream().filter(m -> m.body().contains("good.log")).findFirst().orElseThrow();
        assertEquals(Set.of(good.messageId()), retried);
        assertTrue(faults.injected.get() > 0);
        assertEquals(List.of(), s.records());
        List<ReceivedReport> firstReports = s.reports(1);
        assertEquals(StatusReport.Status.ERROR, firstReports.get(0).report().status());
        assertEquals(1, s.deadLetters(1).size());

        // when DynamoDB is back and SQS delivers the message again
        faults.heal();
        s.expireVisibility(List.of(good));
        List<Message> again = s.receive(1);
        assertEquals(good.messageId(), again.get(0).messageId());
        assertEquals(Set.of(), s.handle(handler, again));

        // then it is indexed and reported once
        assertEquals(List.of("good"), s.records().stream().map(r -> r.metadata().id()).toList());
        assertEquals(StatusReport.Status.SUCCESS, s.reports(1).get(0).report().status());
        s.assertEmpty(s.reportQueueUrl);
        s.assertEmpty(s.stack.ingestQueueUrl());
        flaky.close();
    }

    @Test
    void anOlderFileNeverReplacesANewerOneInTheLatestTable() {
        // given the newer file ingested first
        IngesterHarness s = stack();
        s.put("new.log", metadata("new", START + DAY, null));
        assertEquals(Set.of(), s.handle(s.receive(1)));

        // when an older file (earlier start) arrives in a later batch, and one with the same start
        // but written later (greater create_time) after that
        s.put("old.log", metadata("old", START, null));
        assertEquals(Set.of(), s.handle(s.receive(1)));
        assertEquals("new", s.latest("syslog", "webserver02").metadata().id());
        sleepPastTheSecond();
        s.put("newer.log", metadata("newer", START + DAY, null));
        assertEquals(Set.of(), s.handle(s.receive(1)));

        // then the conditional write kept the newest by (start, create_time)
        assertEquals("newer", s.latest("syslog", "webserver02").metadata().id());
        assertEquals(3, s.records().size());
    }

    /** S3's LastModified has whole seconds: wait for the next one so two uploads differ. */
    private static void sleepPastTheSecond() {
        long millis = Instant.now().toEpochMilli() % 1000;
        try {
            Thread.sleep(1100 - millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aRetentionGivesEveryRecordAnExpiry() {
        IngesterHarness s = stack();
        IngesterHandler handler = s.handler(s.config(env -> {
            env.put("DATALAKE_RETENTION_DAYS", "30");
            return env;
        }), s.ingesterAws.dynamoDb());
        s.put("kept.log", metadata("kept", START, START + DAY));

        assertEquals(Set.of(), s.handle(handler, s.receive(1)));

        long expected = (START + DAY) / 1000 + 30 * 86_400L;
        List<Map<String, AttributeValue>> items = s.items();
        assertEquals(2, items.size());
        items.forEach(item -> assertEquals(Long.toString(expected), item.get("expires_at").n()));
    }

    @Test
    void aReportTopicThatFailsNeverLosesNorRepeatsRecords() {
        // given a report topic that does not exist
        IngesterHarness s = stack();
        IngesterHandler handler = s.handler(s.config(env -> {
            env.put("DATALAKE_REPORT_TOPIC_ARN", "arn:aws:sns:us-east-1:000000000000:no-such-topic");
            return env;
        }), s.ingesterAws.dynamoDb());
        s.put("f.log", metadata("f", START, null));

        // when
        Set<String> retried = s.handle(handler, s.receive(1));

        // then the message is acknowledged with its record written once; the failure is logged
        assertEquals(Set.of(), retried);
        assertEquals(1, s.records().size());
        s.assertEmpty(s.stack.ingestQueueUrl());
        assertTrue(s.logLines.stream().anyMatch(l -> l.contains("report not published")), String.join("\n", s.logLines));
        assertTrue(s.logLines.stream().anyMatch(l -> l.contains("\"ReportsFailed\":1")));
    }

    @Test
    void aPermanentFailureThatCannotBeDeadLetteredStaysOnTheQueue() {
        // given a DLQ URL that names no queue
        IngesterHarness s = stack();
        IngesterHandler handler = s.handler(s.config(env -> {
            env.put("DATALAKE_DLQ_URL", s.stack.deadLetterQueueUrl() + "-missing");
            return env;
        }), s.ingesterAws.dynamoDb());
        s.send("not JSON at all");

        // when
        List<Message> batch = s.receive(1);
        Set<String> retried = s.handle(handler, batch);

        // then SQS keeps it (its redrive policy will move it), and no report pretends it was settled
        assertEquals(Set.of(batch.get(0).messageId()), retried);
        s.assertEmpty(s.reportQueueUrl);
    }

    @Test
    void logLinesCarryIdentifiersOnly() {
        IngesterHarness s = stack();
        s.put("private.log", metadata("syslog", "webserver02", "f1", START, null, "secret-job"));

        s.handle(s.receive(1));

        String logs = String.join("\n", s.logLines);
        assertTrue(logs.contains("\"message\":\"batch handled\""), logs);
        assertTrue(!logs.contains("secret-job") && !logs.contains("/var/log/") && !logs.contains(TestFiles.HASH), logs);
    }
}
