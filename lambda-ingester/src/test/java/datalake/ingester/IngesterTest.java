package datalake.ingester;

import static datalake.ingester.TestFiles.BUCKET;
import static datalake.ingester.TestFiles.DAY;
import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.event;
import static datalake.ingester.TestFiles.message;
import static datalake.ingester.TestFiles.metadata;
import static datalake.ingester.TestFiles.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.records.Record;
import datalake.records.RecordFactory;
import datalake.records.StatusReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;

class IngesterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MODIFIED = 1_715_679_064_000L;
    private static final String KEY = "2024/05/14/sensor-1.csv";
    private static final String URL = "s3://" + BUCKET + "/" + KEY;

    private final FakeClock clock = new FakeClock();
    private final Fakes.Objects objects = new Fakes.Objects();
    private final Fakes.Records records = new Fakes.Records(true);
    private final Fakes.Reports reports = new Fakes.Reports();
    private final Fakes.DeadLetters deadLetters = new Fakes.DeadLetters();
    private final Fakes.Lines lines = new Fakes.Lines();
    private final List<Ingester> started = new ArrayList<>();

    @AfterEach
    void stop() {
        started.forEach(Ingester::close);
    }

    private Ingester ingester(RecordFactory factory) {
        Ingester ingester = Ingester.builder()
                .recordFactory(factory)
                .objects(objects)
                .records(records)
                .index(records)
                .latest(records.latestTable())
                .reports(reports)
                .deadLetters(deadLetters)
                .telemetry(lines.telemetry(clock))
                .clock(clock)
                .functionName("ingester-test")
                .concurrency(Ingester.DEFAULT_CONCURRENCY)
                .build();
        started.add(ingester);
        return ingester;
    }

    private SQSBatchResponse handle(SQSMessage... messages) {
        return handle(new RecordFactory(), List.of(messages));
    }

    private SQSBatchResponse handle(RecordFactory factory, List<SQSMessage> messages) {
        return ingester(factory).handle(messages, Deadline.after(clock, Duration.ofSeconds(30)), "request-1");
    }

    private static Set<String> retried(SQSBatchResponse response) {
        return response.getBatchItemFailures().stream().map(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .collect(Collectors.toSet());
    }

    private List<JsonNode> logLines(String message) throws Exception {
        List<JsonNode> found = new ArrayList<>();
        for (String line : lines.lines) {
            JsonNode node = JSON.readTree(line);
            if (message.equals(node.path("message").asText())) {
                found.add(node);
            }
        }
        return found;
    }

    /** The own line of a message that did not succeed. */
    private JsonNode logOf(String messageId) throws Exception {
        return logLines("message handled").stream().filter(n -> n.path("messageId").asText().equals(messageId))
                .findFirst().orElseThrow();
    }

    /** The one line of the one batch handled. */
    private JsonNode batchLine() throws Exception {
        List<JsonNode> batches = logLines("batch handled");
        assertEquals(1, batches.size(), String.join("\n", lines.lines));
        return batches.get(0);
    }

    @Test
    void aFileInOneBucketIsWrittenKeptAsLatestAndReported() throws Exception {
        // given an object with datalake metadata and its S3 notification, through SNS
        objects.put(BUCKET, KEY, metadata("f1", START, START + 3_600_000L), MODIFIED, 1024);

        // when
        SQSBatchResponse response = handle(message("m1", event("sns/envelope-put.json")));

        // then one record, in the start's day bucket, is in the table and the latest table
        assertEquals(Set.of(), retried(response));
        Record record = records.table.get("16514:syslog|webserver02:f1");
        assertNotNull(record, records.table.keySet().toString());
        assertEquals(URL, record.url());
        assertEquals(MODIFIED, record.createTime());
        assertEquals(1024, record.size());
        assertNull(record.expiresAt());
        assertEquals(record, records.latest.get("syslog:webserver02"));
        // and one success report lists the file once, with the attributes' what
        Report report = reports.of("m1");
        assertEquals(StatusReport.Status.SUCCESS, report.report().status());
        assertEquals(List.of(StatusReport.FileRecord.of(record)), report.report().records());
        assertEquals("syslog", report.what());
        assertEquals(clock.millis(), report.report().start());
        assertTrue(deadLetters.sent.isEmpty());
        JsonNode log = batchLine();
        assertEquals("INFO", log.path("level").asText());
        assertEquals(1, log.path("succeeded").asInt());
        assertEquals(1, log.path("records_written").asInt());
        assertEquals(1, log.path("reports").asInt());
    }

    @Test
    void aBatchOfSuccessesLogsOneLineAndNoLinePerMessage() throws Exception {
        // given three files, one of them spanning two days
        objects.put(BUCKET, "a.csv", metadata("a", START, null), MODIFIED, 1);
        objects.put(BUCKET, "b.csv", metadata("b", START, START + DAY), MODIFIED, 1);
        objects.put(BUCKET, "c.csv", metadata("c", START, null), MODIFIED, 1);

        // when one batch ingests them
        handle(message("m1", put("a.csv", null)), message("m2", put("b.csv", null)), message("m3", put("c.csv", null)));

        // then the log holds one line for the batch, with its counts and phases, and none per message
        assertEquals(List.of(), logLines("message handled"));
        JsonNode batch = batchLine();
        assertEquals("request-1", batch.path("requestId").asText());
        assertEquals(List.of(3, 3, 0, 0, 3, 4, 4, 0, 3, 0), List.of("messages", "succeeded", "failed", "retried", "files",
                "records", "records_written", "records_removed", "reports", "reports_failed").stream()
                .map(field -> batch.path(field).asInt(-1)).toList());
        for (String phase : List.of("parse_ms", "objects_ms", "dead_letters_ms", "reports_ms", "duration_ms")) {
            assertTrue(batch.path(phase).isIntegralNumber(), phase + " in " + batch);
        }
        assertFalse(batch.has("failures"), batch.toString());
        // and the metrics, as before
        assertEquals(3, metrics().path("MessagesSucceeded").asInt());
        assertEquals(4, metrics().path("RecordsWritten").asInt());
    }

    @Test
    void aFailedMessageHasItsOwnLineAndIsNamedInTheBatchLine() throws Exception {
        objects.put(BUCKET, KEY, metadata("f1", START, null), MODIFIED, 1);

        handle(message("good", put(KEY, null)), message("poison", "{not json"));

        // the failure has its line, the success none
        assertEquals(List.of("poison"), logLines("message handled").stream().map(l -> l.path("messageId").asText()).toList());
        JsonNode own = logOf("poison");
        assertEquals("ERROR", own.path("level").asText());
        assertEquals("BadJson", own.path("error_kind").asText());
        // and the batch line names it with its kind and reason
        JsonNode batch = batchLine();
        assertEquals("ERROR", batch.path("level").asText());
        assertEquals(1, batch.path("succeeded").asInt());
        assertEquals(1, batch.path("failed").asInt());
        JsonNode failure = batch.path("failures").get(0);
        assertEquals(1, batch.path("failures").size());
        assertEquals("poison", failure.path("messageId").asText());
        assertEquals("error", failure.path("status").asText());
        assertEquals("BadJson", failure.path("error_kind").asText());
        assertEquals(own.path("error_message").asText(), failure.path("error_message").asText());
    }

    @Test
    void aBatchLineNamesTwentyFailuresAndCountsTheRest() throws Exception {
        List<SQSMessage> poison = new ArrayList<>();
        for (int i = 0; i < Telemetry.MAX_FAILURES_NAMED + 5; i++) {
            poison.add(message("poison-" + i, "{not json"));
        }

        handle(new RecordFactory(), poison);

        JsonNode batch = batchLine();
        assertEquals(Telemetry.MAX_FAILURES_NAMED, batch.path("failures").size());
        assertEquals(5, batch.path("failures_not_named").asInt());
        assertEquals(Telemetry.MAX_FAILURES_NAMED + 5, logLines("message handled").size(), "each has its own line");
    }

    @Test
    void aFileSpanningThreeDaysHasARecordInEachBucket() {
        // given a file from 00:05 on day 16514 to the start of day 16516
        objects.put(BUCKET, KEY, metadata("f3", START, 16_516L * DAY), MODIFIED, 7);

        // when
        handle(message("m1", put(KEY, "01")));

        // then
        assertEquals(Set.of("16514:syslog|webserver02:f3", "16515:syslog|webserver02:f3", "16516:syslog|webserver02:f3"),
                records.table.keySet());
        // the report lists the file once, not once per bucket
        assertEquals(1, reports.of("m1").report().records().size());
    }

    @Test
    void aNullEndIsAnInstantInOneBucket() {
        objects.put(BUCKET, KEY, metadata("instant", START, null), MODIFIED, 7);

        handle(message("m1", put(KEY, null)));

        Record record = records.table.get("16514:syslog|webserver02:instant");
        assertNull(record.metadata().end());
        assertEquals(1, records.table.size());
    }

    @Test
    void theWorkIdOrItsAbsenceShapesTheWorkIdKey() {
        objects.put(BUCKET, "a.log", metadata("syslog", "webserver02", "with", START, null, "job-7"), MODIFIED, 1);
        objects.put(BUCKET, "b.log", metadata("syslog", "webserver02", "without", START, null, null), MODIFIED, 1);

        handle(message("m1", put("a.log", null)), message("m2", put("b.log", null)));

        assertEquals("job-7:syslog", records.table.get("16514:syslog|webserver02:with").workIdIndexKey().toString());
        assertEquals("nullwithout:syslog", records.table.get("16514:syslog|webserver02:without").workIdIndexKey().toString());
    }

    @Test
    void aRetentionGivesEveryRecordAnExpiry() {
        objects.put(BUCKET, KEY, metadata("kept", START, START + DAY), MODIFIED, 7);

        handle(new RecordFactory(30, 7), List.of(message("m1", put(KEY, null))));

        long expected = (START + DAY) / 1000 + 7 * 86_400L;
        assertEquals(2, records.table.size());
        records.table.values().forEach(r -> assertEquals(expected, r.expiresAt()));
    }

    @Test
    void keysWithSpacesAndNonAsciiAreDecodedIntoTheUrl() {
        String key = "reports/café menu + prices: 2024–05.txt";
        objects.put("datalake-example", key, metadata("menu", START, null), MODIFIED, 7);

        SQSBatchResponse response = handle(message("m1", event("s3/encoded-key.json")));

        assertEquals(Set.of(), retried(response));
        assertEquals("s3://datalake-example/" + key, records.table.get("16514:syslog|webserver02:menu").url());
    }

    @Test
    void everyMessageShapeOfABatchGetsItsOutcome() throws Exception {
        // given the fixture batch: SNS-wrapped put, the same put direct, an EventBridge put, a test
        // event through SNS, a body that is not JSON, and a delete of an object that is gone
        SQSEvent event = EventLoader.loadSQSEvent("events/sqs/mixed-batch.json");
        objects.put(BUCKET, KEY, metadata("f1", START, null), MODIFIED, 1024);
        objects.put(BUCKET, "2024/05/14/sensor 2.csv", metadata("f2", START, null), MODIFIED, 5);
        String deleted = NotificationParser.parse(event.getRecords().get(5).getBody()).events().get(0).key();
        List<String> ids = event.getRecords().stream().map(SQSMessage::getMessageId).toList();

        // when
        SQSBatchResponse response = handle(new RecordFactory(), event.getRecords());

        // then nothing is retried: five successes and one dead letter
        assertEquals(Set.of(), retried(response));
        assertEquals(List.of("success", "success", "success", "success", "error", "success"),
                ids.stream().map(id -> reports.of(id).report().status().json()).toList());
        // the object named twice was read once, written once, and both messages report it; the
        // EventBridge key as sent ('+') is not there, its decoded reading (' ') is
        assertEquals(4, objects.heads.get());
        assertEquals(1, records.writes.size());
        assertEquals(2, records.writes.get(0).size());
        assertEquals(reports.of(ids.get(0)).report().records(), reports.of(ids.get(1)).report().records());
        // the test event reports success with no records
        assertEquals(List.of(), reports.of(ids.get(3)).report().records());
        assertEquals("s3://" + BUCKET + "/2024/05/14/sensor 2.csv", reports.of(ids.get(2)).report().records().get(0).url());
        // the bad body is in the DLQ, unchanged, with its reason
        assertEquals(List.of(ids.get(4)), deadLetters.sent.stream().map(DeadLetter::messageId).toList());
        assertEquals("this is not json", deadLetters.sent.get(0).body());
        assertEquals(ErrorKind.BAD_JSON, deadLetters.sent.get(0).failure().kind());
        // the delete of an object never indexed removes nothing, and says so
        assertEquals(Report.Action.REMOVE, reports.of(ids.get(5)).action());
        assertEquals(List.of(), reports.of(ids.get(5)).report().records());
        assertTrue(reports.of(ids.get(5)).report().message().startsWith("s3://" + BUCKET + "/" + deleted + " was removed"),
                reports.of(ids.get(5)).report().message());
        // the duplicate's records are written once (by the message that owns the object), reported by both
        JsonNode batch = batchLine();
        assertEquals(2, batch.path("records_written").asInt());
        assertEquals(3, batch.path("records").asInt());
        assertEquals(3, batch.path("files").asInt());
        // and the one failure is named
        assertEquals(List.of(ids.get(4)), List.of(batch.path("failures").get(0).path("messageId").asText()));
    }

    /** Which event owns the object is DuplicateEventsTest's; here, what the batch counts. */
    @Test
    void theSameObjectTwiceIsReadAndWrittenOnceAndReportedByBoth() throws Exception {
        // given two notifications of one key, the later event delivered first
        objects.put(BUCKET, KEY, metadata("f1", START, null), MODIFIED, 1024);

        // when
        SQSBatchResponse response = handle(message("later", put(KEY, "0055AED6DCD90281F0")),
                message("earlier", put(KEY, "0055AED6DCD90281E5")));

        // then
        assertEquals(Set.of(), retried(response));
        assertEquals(1, objects.heads.get());
        assertEquals(1, records.table.size());
        assertEquals(1, batchLine().path("records_written").asInt());
        assertEquals(2, batchLine().path("records").asInt());
        assertEquals(1, batchLine().path("files").asInt());
        assertEquals(reports.of("later").report().records(), reports.of("earlier").report().records());
    }

    @Test
    void aCopyWithTheSameIdReplacesTheOriginalsRecordsInOneWrite() throws Exception {
        // given a put and then a copy of it elsewhere: the same metadata, so the same record keys;
        // the copy is newer, yet its notification comes first
        String metadata = metadata("f1", START, START + DAY);
        objects.put(BUCKET, "original.csv", metadata, MODIFIED, 1024);
        objects.put(BUCKET, "copy.csv", metadata, MODIFIED + 1000, 1024);

        // when
        SQSBatchResponse response = handle(message("copy", s3Copy("copy.csv")), message("put", put("original.csv", "05")));

        // then no key went twice into a write and the newer object's records won
        assertEquals(Set.of(), retried(response));
        assertEquals(2, records.table.size());
        records.table.values().forEach(r -> assertEquals("s3://" + BUCKET + "/copy.csv", r.url()));
        assertEquals("s3://" + BUCKET + "/copy.csv", records.latest.get("syslog:webserver02").url());
        // both messages succeed, each reporting its own file, as a one-by-one run would
        assertEquals("s3://" + BUCKET + "/original.csv", reports.of("put").report().records().get(0).url());
        assertEquals("s3://" + BUCKET + "/copy.csv", reports.of("copy").report().records().get(0).url());
        // the shared keys are written once, for the newer object
        assertEquals(2, batchLine().path("records_written").asInt());
        assertEquals(4, batchLine().path("records").asInt());
    }

    @Test
    void withTheSameLastModifiedTheLaterMessageWinsAKeyCollision() {
        String metadata = metadata("f1", START, null);
        objects.put(BUCKET, "original.csv", metadata, MODIFIED, 1024);
        objects.put(BUCKET, "copy.csv", metadata, MODIFIED, 1024);

        handle(message("put", put("original.csv", null)), message("copy", s3Copy("copy.csv")));

        assertEquals("s3://" + BUCKET + "/copy.csv", records.table.get("16514:syslog|webserver02:f1").url());
    }

    private static String s3Copy(String key) {
        return TestFiles.s3Event("ObjectCreated:Copy", BUCKET, key, "0064A1B2C3D4E5F601");
    }

    enum Permanent {
        MISSING_METADATA, INVALID_METADATA, NO_SUCH_BUCKET, UNSUPPORTED_TIME_RANGE, BAD_NOTIFICATION, UNSUPPORTED_S3_EVENT, BAD_JSON
    }

    @ParameterizedTest
    @EnumSource(Permanent.class)
    void aPermanentFailureIsReportedDeadLetteredAndAcknowledged(Permanent kind) throws Exception {
        // given a message that can never succeed, next to one that succeeds
        objects.put(BUCKET, "good.csv", metadata("good", START, null), MODIFIED, 1);
        String body = switch (kind) {
            case MISSING_METADATA -> {
                objects.put(BUCKET, KEY, null, MODIFIED, 1);
                yield put(KEY, null);
            }
            case INVALID_METADATA -> {
                objects.put(BUCKET, KEY, metadata("syslog", "Web Server", "f1", START, null, null), MODIFIED, 1);
                yield put(KEY, null);
            }
            case NO_SUCH_BUCKET -> {
                objects.missingBuckets.add("gone-bucket");
                yield TestFiles.s3Event("ObjectCreated:Put", "gone-bucket", "gone.csv", null);
            }
            case UNSUPPORTED_TIME_RANGE -> {
                objects.put(BUCKET, KEY, metadata("long", START, START + 30 * DAY), MODIFIED, 1);
                yield put(KEY, null);
            }
            case BAD_NOTIFICATION -> "{\"hello\":\"world\"}";
            case UNSUPPORTED_S3_EVENT -> event("s3/restore-post.json");
            case BAD_JSON -> "{not json";
        };

        // when
        SQSBatchResponse response = handle(message("bad", body), message("good", put("good.csv", null)));

        // then it is acknowledged, its body is in the DLQ with the reason, and an error report says why
        assertEquals(Set.of(), retried(response));
        assertEquals(1, deadLetters.sent.size());
        DeadLetter letter = deadLetters.sent.get(0);
        assertEquals(body, letter.body());
        assertEquals(kind.name(), letter.failure().kind().name());
        Report report = reports.of("bad");
        assertEquals(StatusReport.Status.ERROR, report.report().status());
        assertEquals(letter.failure().message(), report.report().message());
        assertEquals(kind == Permanent.UNSUPPORTED_TIME_RANGE ? "syslog" : null, report.what());
        // and the other message is untouched
        assertEquals(StatusReport.Status.SUCCESS, reports.of("good").report().status());
        assertEquals(Set.of("16514:syslog|webserver02:good"), records.table.keySet());
        JsonNode log = logOf("bad");
        assertEquals("error", log.path("status").asText());
        assertEquals(letter.failure().kind().label(), log.path("error_kind").asText());
    }

    @Test
    void aTransientReadFailureSendsOnlyThatMessageBack() {
        // given S3 failing for one object
        objects.put(BUCKET, "good.csv", metadata("good", START, null), MODIFIED, 1);
        objects.put(BUCKET, KEY, metadata("f1", START, null), MODIFIED, 1);
        objects.errors.put(BUCKET + "/" + KEY, serviceError("S3", 503, "ServiceUnavailable"));

        // when
        SQSBatchResponse response = handle(message("flaky", put(KEY, null)), message("good", put("good.csv", null)));

        // then SQS redelivers it; it is neither reported nor dead-lettered yet
        assertEquals(Set.of("flaky"), retried(response));
        assertNull(reports.of("flaky"));
        assertTrue(deadLetters.sent.isEmpty());
        assertEquals(Set.of("16514:syslog|webserver02:good"), records.table.keySet());
    }

    @Test
    void unwrittenRecordsSendTheirMessagesBack() throws Exception {
        // given a table that leaves one file's records unprocessed until the budget runs out
        objects.put(BUCKET, "good.csv", metadata("good", START, null), MODIFIED, 1);
        objects.put(BUCKET, KEY, metadata("f1", START, START + DAY), MODIFIED, 1);
        records.writeFailure = r -> r.metadata().id().equals("f1")
                ? new Failure(ErrorKind.TIME_BUDGET, "still unprocessed.") : null;

        // when
        SQSBatchResponse response = handle(message("slow", put(KEY, null)), message("good", put("good.csv", null)));

        // then
        assertEquals(Set.of("slow"), retried(response));
        assertEquals("TimeBudget", logOf("slow").path("error_kind").asText());
        assertEquals(Set.of("syslog:webserver02"), records.latest.keySet());
        assertEquals("good", records.latest.get("syslog:webserver02").metadata().id());
    }

    @Test
    void whenTheWinnerOfAKeyCollisionIsNotWrittenTheLoserComesBackToo() {
        String metadata = metadata("f1", START, null);
        objects.put(BUCKET, "original.csv", metadata, MODIFIED, 1024);
        objects.put(BUCKET, "copy.csv", metadata, MODIFIED + 1000, 1024);
        records.writeFailure = r -> new Failure(ErrorKind.THROTTLING, "throttled.");

        SQSBatchResponse response = handle(message("put", put("original.csv", null)), message("copy", s3Copy("copy.csv")));

        assertEquals(Set.of("put", "copy"), retried(response));
    }

    @Test
    void aFailingLatestTableSendsTheMessageBackButKeepsItsRecords() {
        objects.put(BUCKET, KEY, metadata("f1", START, null), MODIFIED, 1);
        records.latestError = serviceError("DynamoDB", 500, "InternalServerError");

        SQSBatchResponse response = handle(message("m1", put(KEY, null)));

        assertEquals(Set.of("m1"), retried(response));
        assertEquals(1, records.table.size());
    }

    @Test
    void theLatestTableKeepsTheNewestFileOfTheBatch() {
        // given two files of one what:where; the newer (greater start) comes first
        objects.put(BUCKET, "new.csv", metadata("new", START + DAY, null), MODIFIED, 1);
        objects.put(BUCKET, "old.csv", metadata("old", START, null), MODIFIED + 5000, 1);

        handle(message("m1", put("new.csv", null)), message("m2", put("old.csv", null)));

        assertEquals("new", records.latest.get("syslog:webserver02").metadata().id());
    }

    @Test
    void aLatestTableIsOptional() {
        Fakes.Records withoutLatest = new Fakes.Records(false);
        objects.put(BUCKET, KEY, metadata("f1", START, null), MODIFIED, 1);
        Ingester ingester = Ingester.builder()
                .recordFactory(new RecordFactory())
                .objects(objects)
                .records(withoutLatest)
                .index(withoutLatest)
                .latest(withoutLatest.latestTable())
                .reports(reports)
                .deadLetters(deadLetters)
                .telemetry(lines.telemetry(clock))
                .clock(clock)
                .functionName("ingester-test")
                .concurrency(2)
                .build();
        started.add(ingester);

        SQSBatchResponse response = ingester.handle(List.of(message("m1", put(KEY, null))),
                Deadline.after(clock, Duration.ofSeconds(5)), null);

        assertEquals(Set.of(), retried(response));
        assertEquals(1, withoutLatest.table.size());
        assertTrue(withoutLatest.latest.isEmpty());
    }

    @Test
    void aPermanentFailureThatCannotBeDeadLetteredStaysInTheQueue() throws Exception {
        deadLetters.failing = true;

        SQSBatchResponse response = handle(message("poison", "{not json"));

        // never lost: SQS keeps it (and its redrive policy moves it after maxReceiveCount)
        assertEquals(Set.of("poison"), retried(response));
        assertNull(reports.of("poison"));
        assertEquals("DlqUnavailable", logOf("poison").path("error_kind").asText());
    }

    @Test
    void aReportThatCannotBePublishedChangesNothingElse() throws Exception {
        objects.put(BUCKET, KEY, metadata("f1", START, null), MODIFIED, 1);
        reports.failing = true;

        SQSBatchResponse response = handle(message("m1", put(KEY, null)));

        // the message is acknowledged (retrying it would repeat the records), the failure logged and counted
        assertEquals(Set.of(), retried(response));
        assertEquals(1, records.writes.size());
        assertEquals(1, records.table.size());
        assertEquals("m1", logLines("report not published").get(0).path("messageId").asText());
        assertEquals(1, metrics().path("ReportsFailed").asInt());
    }

    @Test
    void theHeadsOfABatchRunConcurrentlyButBounded() {
        // given 24 objects whose HEAD takes 40 ms each
        objects.headMillis = 40;
        List<SQSMessage> messages = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            objects.put(BUCKET, "f" + i + ".csv", metadata("f" + i, START, null), MODIFIED, 1);
            messages.add(message("m" + i, put("f" + i + ".csv", null)));
        }

        // when
        SQSBatchResponse response = handle(new RecordFactory(), messages);

        // then
        assertEquals(Set.of(), retried(response));
        assertTrue(objects.maxConcurrent.get() > 1, "HEADs ran one after another");
        assertTrue(objects.maxConcurrent.get() <= Ingester.DEFAULT_CONCURRENCY, "more than 8 HEADs at once");
        assertEquals(24, records.table.size());
    }

    @Test
    void logsCarryIdentifiersButNoOtherMetadata() {
        objects.put(BUCKET, KEY, metadata("syslog", "webserver02", "f1", START, null, "secret-work"), MODIFIED, 1);
        objects.put(BUCKET, "bad.csv", metadata("syslog", "Bad Where", "f2", START, null, null), MODIFIED, 1);

        handle(message("m1", put(KEY, null)), message("m2", put("bad.csv", null)));

        String all = String.join("\n", lines.lines);
        assertFalse(all.contains("secret-work"), all);
        assertFalse(all.contains("/var/log/"), all);
        assertFalse(all.contains(TestFiles.HASH), all);
        assertFalse(all.contains("Bad Where"), all);
    }

    @Test
    void metricsCountMessagesRecordsAndErrorsByKind() throws Exception {
        objects.put(BUCKET, KEY, metadata("f1", START, START + DAY), MODIFIED, 1);

        handle(message("m1", put(KEY, null)), message("m2", "{not json"), message("m3", "[]"));

        JsonNode metrics = metrics();
        assertEquals("Datalake", metrics.path("_aws").path("CloudWatchMetrics").get(0).path("Namespace").asText());
        assertEquals("ingester-test", metrics.path("Function").asText());
        assertEquals(3, metrics.path("Messages").asInt());
        assertEquals(1, metrics.path("MessagesSucceeded").asInt());
        assertEquals(2, metrics.path("MessagesFailed").asInt());
        assertEquals(0, metrics.path("MessagesRetried").asInt());
        assertEquals(2, metrics.path("RecordsWritten").asInt());
        Set<String> kinds = new java.util.HashSet<>();
        for (String line : lines.lines) {
            JsonNode node = JSON.readTree(line);
            if (node.has("ErrorKind")) {
                kinds.add(node.path("ErrorKind").asText() + "=" + node.path("Errors").asInt());
            }
        }
        assertEquals(Set.of("BadJson=1", "BadNotification=1"), kinds);
    }

    @Test
    void aDefectSendsTheWholeBatchBackRatherThanLoseAMessage() throws Exception {
        objects.put(BUCKET, KEY, metadata("f1", START, null), MODIFIED, 1);
        records.writeFailure = r -> {
            throw new IllegalStateException("a bug");
        };

        SQSBatchResponse response = handle(message("m1", put(KEY, null)), message("m2", event("s3/test-event.json")));

        assertEquals(Set.of("m1", "m2"), retried(response));
        assertEquals(1, logLines("batch failed").size());
    }

    @Test
    void anEmptyBatchIsFine() {
        SQSBatchResponse response = handle();

        assertTrue(response.getBatchItemFailures().isEmpty());
    }

    private JsonNode metrics() throws Exception {
        for (String line : lines.lines) {
            JsonNode node = JSON.readTree(line);
            if (node.has("_aws") && node.has("Messages")) {
                return node;
            }
        }
        throw new AssertionError("no metrics line in " + lines.lines);
    }

    private static AwsServiceException serviceError(String service, int status, String code) {
        return AwsServiceException.builder().statusCode(status)
                .awsErrorDetails(AwsErrorDetails.builder().serviceName(service).errorCode(code).build()).build();
    }
}
