package datalake.ingester;

import static datalake.ingester.TestFiles.BUCKET;
import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.message;
import static datalake.ingester.TestFiles.metadata;
import static datalake.ingester.TestFiles.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import datalake.records.RecordFactory;
import datalake.records.StatusReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * How each message of a batch settles: a transient failure on the last receive SQS allows is
 * dead-lettered here with its reason and reported (not left to the redrive, which gives neither), and
 * each report's start and duration are the message's own.
 */
class MessageSettlementTest {
    private static final long MODIFIED = 1_715_679_064_000L;
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

    private Ingester ingester(ObjectStore store, Integer maxReceiveCount) {
        return ingester(store, maxReceiveCount, 2);
    }

    private Ingester ingester(ObjectStore store, Integer maxReceiveCount, int concurrency) {
        Ingester ingester = Ingester.builder()
                .recordFactory(new RecordFactory())
                .objects(store)
                .records(records)
                .index(records)
                .latest(records)
                .reports(reports)
                .deadLetters(deadLetters)
                .telemetry(lines.telemetry(clock))
                .clock(clock)
                .maxReceiveCount(maxReceiveCount)
                .concurrency(concurrency)
                .build();
        started.add(ingester);
        return ingester;
    }

    private static SQSMessage received(String id, String body, int receiveCount) {
        SQSMessage message = message(id, body);
        message.setAttributes(Map.of("ApproximateReceiveCount", Integer.toString(receiveCount)));
        return message;
    }

    private SQSBatchResponse handle(Ingester ingester, SQSMessage... messages) {
        return ingester.handle(List.of(messages), Deadline.after(clock, Duration.ofSeconds(30)), null);
    }

    private static List<String> retried(SQSBatchResponse response) {
        return response.getBatchItemFailures().stream().map(SQSBatchResponse.BatchItemFailure::getItemIdentifier).toList();
    }

    private void s3Fails(String key) {
        objects.errors.put(BUCKET + "/" + key, S3Exception.builder().statusCode(503).message("Slow Down").build());
    }

    @Test
    void aTransientFailureBeforeTheLastReceiveGoesBackToSqsUnreported() {
        objects.put(BUCKET, "a.csv", metadata("a", START, null), MODIFIED, 1);
        s3Fails("a.csv");

        SQSBatchResponse response = handle(ingester(objects, 5), received("m", put("a.csv", null), 4));

        assertEquals(List.of("m"), retried(response));
        assertTrue(deadLetters.sent.isEmpty());
        assertNull(reports.of("m"));
    }

    @Test
    void aTransientFailureOnTheLastReceiveIsDeadLetteredWithItsReasonAndReported() {
        // given a message on its fifth receive, the queue's maxReceiveCount, failing transiently again
        objects.put(BUCKET, "a.csv", metadata("a", START, null), MODIFIED, 1);
        s3Fails("a.csv");

        // when
        SQSBatchResponse response = handle(ingester(objects, 5), received("m", put("a.csv", null), 5));

        // then it is acknowledged: in the DLQ with the transient kind and why it was not retried, and reported
        assertEquals(List.of(), retried(response));
        assertEquals(1, deadLetters.sent.size());
        DeadLetter letter = deadLetters.sent.get(0);
        assertEquals(ErrorKind.SERVICE_ERROR, letter.failure().kind());
        assertTrue(letter.failure().message().contains("5 times"), letter.failure().message());
        assertEquals(put("a.csv", null), letter.body());
        Report report = reports.of("m");
        assertEquals(StatusReport.Status.ERROR, report.report().status());
        assertEquals(letter.failure().message(), report.report().message());
    }

    @Test
    void onTheLastReceiveADeadLetterThatCannotBeSentLeavesTheMessageToTheRedrive() {
        objects.put(BUCKET, "a.csv", metadata("a", START, null), MODIFIED, 1);
        s3Fails("a.csv");
        deadLetters.failing = true;

        SQSBatchResponse response = handle(ingester(objects, 5), received("m", put("a.csv", null), 5));

        assertEquals(List.of("m"), retried(response));
        assertNull(reports.of("m"));
    }

    @Test
    void withoutAMaxReceiveCountEveryTransientFailureGoesBack() {
        objects.put(BUCKET, "a.csv", metadata("a", START, null), MODIFIED, 1);
        s3Fails("a.csv");

        SQSBatchResponse response = handle(ingester(objects, null), received("m", put("a.csv", null), 50));

        assertEquals(List.of("m"), retried(response));
    }

    @Test
    void objectsTheTimeBudgetLeavesNoTimeForAreNotStartedAndComeBackAsTimeBudget() {
        // given a batch of 24 uploads whose HEADs take 300 ms each, one at a time, and 400 ms of budget
        List<SQSMessage> batch = uploads(24, 1);
        long before = clock.millis();

        // when
        SQSBatchResponse response = ingester(headsTaking(300), 5, 1)
                .handle(batch, Deadline.after(clock, Duration.ofMillis(400)), null);

        // then no object step started after the deadline: two HEADs (the second began at 300 ms, and its
        // commit did not), so the batch ended well inside the margin the handler keeps for settling
        assertEquals(2, objects.heads.get());
        long took = clock.millis() - before;
        assertTrue(took <= 400 + IngesterHandler.MIN_MARGIN.toMillis(), "the batch took " + took + " ms");
        assertEquals(1, records.objects.size(), "the one commit made in time");
        assertTrue(records.table.isEmpty(), "its writes would have begun after the deadline");
        // and every message comes back, for its unfinished object, as TimeBudget
        assertEquals(batch.stream().map(SQSMessage::getMessageId).toList(), retried(response));
        assertEquals(24, lines.lines.stream()
                .filter(l -> l.contains("\"message handled\"") && l.contains("\"error_kind\":\"TimeBudget\"")).count());
        assertTrue(reports.published.isEmpty());
    }

    @Test
    void onTheLastReceiveObjectsTheTimeBudgetLeftUndoneAreDeadLetteredAndReported() {
        // given the same batch on its fifth receive, the queue's maxReceiveCount
        List<SQSMessage> batch = uploads(24, 5);

        // when
        SQSBatchResponse response = ingester(headsTaking(300), 5, 1)
                .handle(batch, Deadline.after(clock, Duration.ofMillis(400)), null);

        // then none is left to the redrive: each is in the DLQ with its reason, and reported
        assertEquals(List.of(), retried(response));
        assertEquals(24, deadLetters.sent.size());
        for (DeadLetter letter : deadLetters.sent) {
            assertEquals(ErrorKind.TIME_BUDGET, letter.failure().kind());
            assertTrue(letter.failure().message().contains("time budget ran out before"), letter.failure().message());
            Report report = reports.of(letter.messageId());
            assertEquals(StatusReport.Status.ERROR, report.report().status());
            assertEquals(letter.failure().message(), report.report().message());
        }
    }

    /** Uploads of one-day files, one message each, on their {@code receiveCount}th receive. */
    private List<SQSMessage> uploads(int count, int receiveCount) {
        List<SQSMessage> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            objects.put(BUCKET, "f" + i + ".csv", metadata("f" + i, START, null), MODIFIED, 1);
            batch.add(received("m" + i, put("f" + i + ".csv", null), receiveCount));
        }
        return batch;
    }

    /** The bucket, each HEAD of which takes {@code millis} on the test's clock. */
    private ObjectStore headsTaking(long millis) {
        return new ObjectStore() {
            @Override
            public Optional<StoredObject> head(String bucket, String key) {
                clock.advance(Duration.ofMillis(millis));
                return objects.head(bucket, key);
            }

            @Override
            public boolean bucketExists(String bucket) {
                return true;
            }
        };
    }

    @Test
    void eachReportHasItsMessagesOwnStartAndDuration() {
        // given a batch: a body that is not JSON (settled at once), and an upload whose HEAD takes 300 ms
        objects.put(BUCKET, "slow.csv", metadata("slow", START, null), MODIFIED, 1);
        ObjectStore slow = new ObjectStore() {
            @Override
            public Optional<StoredObject> head(String bucket, String key) {
                clock.advance(Duration.ofMillis(300));
                return objects.head(bucket, key);
            }

            @Override
            public boolean bucketExists(String bucket) {
                return true;
            }
        };
        long before = clock.millis();

        // when
        handle(ingester(slow, 5), received("bad", "not json", 1), received("slow", put("slow.csv", null), 1));

        // then the bad message's report took no time; the upload's took the HEAD's 300 ms
        StatusReport bad = reports.of("bad").report();
        StatusReport upload = reports.of("slow").report();
        assertEquals(before, bad.start());
        assertEquals(0.0, bad.duration());
        assertEquals(before, upload.start());
        assertTrue(upload.duration() >= 0.3, "the upload's report: " + upload.duration() + " s");
    }
}
