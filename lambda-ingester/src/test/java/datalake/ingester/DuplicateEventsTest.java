package datalake.ingester;

import static datalake.ingester.TestFiles.BUCKET;
import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.message;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import datalake.records.StatusReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The one rule for an object named more than once in a batch (docs/DESIGN.md, "Messages"): the
 * event with the greater {@code sequencer} wins, and without sequencers (or with equal ones) the later
 * event; the object then takes its winning event's place in the batch, which orders it against another
 * object whose records share its keys. Queue messages ({@link Ingester#handle}) and followed objects
 * ({@link Ingester#follow}: the backfill, the reconciliation) follow the same rule.
 */
class DuplicateEventsTest {
    private static final long MODIFIED = 1_715_679_064_000L;
    private static final String EARLIER = "0055AED6DCD90281E5";
    private static final String LATER = "0055AED6DCD90281F0";

    private final FakeClock clock = new FakeClock();
    private final Fakes.Objects objects = new Fakes.Objects();
    private final Fakes.Records records = new Fakes.Records(true);
    private final Fakes.Reports reports = new Fakes.Reports();
    private final List<Ingester> started = new ArrayList<>();

    @AfterEach
    void stop() {
        started.forEach(Ingester::close);
    }

    /** How the events reach the ingester: one queue message each, or as objects to follow. */
    enum Path {
        HANDLE, FOLLOW
    }

    private void ingest(Path path, ObjectEvent... events) {
        if (path == Path.FOLLOW) {
            ingester().follow(List.of(events), Deadline.after(clock, Duration.ofSeconds(30)));
            return;
        }
        List<SQSMessage> messages = new ArrayList<>();
        for (ObjectEvent event : events) {
            messages.add(message("m" + messages.size(), TestFiles.s3Event(event.eventName(), event.bucket(), event.key(),
                    event.sequencer())));
        }
        handle(messages);
    }

    private void handle(List<SQSMessage> messages) {
        SQSBatchResponse response = ingester().handle(messages, Deadline.after(clock, Duration.ofSeconds(30)), null);
        assertEquals(List.of(), response.getBatchItemFailures());
    }

    private Ingester ingester() {
        Ingester ingester = Ingester.builder()
                .objects(objects)
                .records(records)
                .index(records)
                .latest(records)
                .reports(reports)
                .deadLetters(new Fakes.DeadLetters())
                .telemetry(new Fakes.Lines().telemetry(clock))
                .clock(clock)
                .build();
        started.add(ingester);
        return ingester;
    }

    private static ObjectEvent put(String key, String sequencer) {
        return new ObjectEvent(BUCKET, key, "ObjectCreated:Put", sequencer);
    }

    /**
     * a.csv and b.csv with the same metadata (so the same record key) and the same LastModified: their
     * places in the batch decide whose record the key keeps.
     */
    private void twoCopies() {
        String metadata = metadata("f1", START, null);
        objects.put(BUCKET, "a.csv", metadata, MODIFIED, 10);
        objects.put(BUCKET, "b.csv", metadata, MODIFIED, 10);
    }

    /** The url of the record the two copies share. */
    private String recordOfTheSharedKey() {
        return records.table.get("16514:syslog|webserver02:f1").url();
    }

    private String sequencerIndexed(String key) {
        return records.objects.get("s3://" + BUCKET + "/" + key).sequencer();
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void theGreaterSequencerOwnsTheObjectWhetherItComesFirstOrSecond(Path path) {
        objects.put(BUCKET, "first.csv", metadata("f1", START, null), MODIFIED, 10);
        objects.put(BUCKET, "second.csv", metadata("f2", START, null), MODIFIED, 10);

        ingest(path, put("first.csv", LATER), put("second.csv", EARLIER), put("first.csv", EARLIER),
                put("second.csv", LATER));

        assertEquals(LATER, sequencerIndexed("first.csv"));
        assertEquals(LATER, sequencerIndexed("second.csv"));
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void anObjectTakesThePlaceOfItsWinningEventOutOfOrder(Path path) {
        // given two copies; a.csv is named first by its later event, then b.csv, then a.csv again by an
        // earlier event delivered late
        twoCopies();

        ingest(path, put("a.csv", LATER), put("b.csv", null), put("a.csv", EARLIER));

        // then a.csv stands at its winning event's place, before b.csv: b.csv's record is the one kept
        assertEquals("s3://" + BUCKET + "/b.csv", recordOfTheSharedKey());
        assertEquals(LATER, sequencerIndexed("a.csv"));
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void withoutSequencersTheLaterEventOwnsTheObject(Path path) {
        twoCopies();

        ingest(path, put("a.csv", null), put("b.csv", null), put("a.csv", null));

        assertEquals("s3://" + BUCKET + "/a.csv", recordOfTheSharedKey());
    }

    /**
     * A put and a delete of one key in one batch: HEAD decides what is done, and both messages report it
     * alike (action and note), in the words of the event that owns the object, the one with the greater
     * sequencer: the put's message too says "was removed" when the delete owns it.
     */
    @ParameterizedTest
    @CsvSource({
        // at HEAD, put's and delete's sequencers, what both messages report
        "false, 01, 02, remove, was removed",
        "true,  01, 02, index,  exists again: it is indexed as it is now.",
        "false, 02, 01, remove, no longer exists (removed after this event)",
        "true,  02, 01, index,  ",
    })
    void aPutAndADeleteOfOneKeyReportAlikeInTheOwningEventsWords(boolean exists, String putSequencer,
            String deleteSequencer, String action, String note) {
        if (exists) {
            objects.put(BUCKET, "k.csv", metadata("f1", START, null), MODIFIED, 10);
        }

        handle(List.of(message("put", TestFiles.s3Event("ObjectCreated:Put", BUCKET, "k.csv", putSequencer)),
                message("delete", TestFiles.s3Event("ObjectRemoved:Delete", BUCKET, "k.csv", deleteSequencer))));

        for (String messageId : List.of("put", "delete")) {
            Report report = reports.of(messageId);
            assertEquals(StatusReport.Status.SUCCESS, report.report().status(), messageId);
            assertEquals(action, report.action().json(), messageId);
            String message = report.report().message();
            assertEquals(note == null, message == null, messageId + ": " + message);
            assertTrue(note == null || message.contains(note), messageId + ": " + message);
        }
        assertEquals(reports.of("put").report().message(), reports.of("delete").report().message());
        assertEquals(exists ? 1 : 0, records.table.size());
    }
}
