package datalake.ingester;

import static datalake.ingester.TestFiles.DAY;
import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.RecordItems;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.ingester.IngesterHarness.ReceivedReport;
import datalake.records.MetadataParser;
import datalake.records.Record;
import datalake.records.RecordFactory;
import datalake.records.StatusReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The index follows the bucket (docs/DESIGN.md, "The index follows the bucket"), against moto and
 * dynalite: removals through the notifications moto really sends (ObjectRemoved:Delete of an
 * unversioned bucket); where moto sends none (delete markers, the deletion of one version among
 * others, lifecycle expirations) the real S3 state is put in place and the notification AWS sends for
 * it is put on the queue.
 */
@ExtendWith(EmulatorsExtension.class)
class IndexFollowsBucketIT {
    private static final Emulators AWS = Emulators.shared();
    private static final long HOUR = 3_600_000L;
    private final List<IngesterHarness> stacks = new ArrayList<>();
    private String testName;

    @BeforeEach
    void name(TestInfo info) {
        testName = info.getTestMethod().map(java.lang.reflect.Method::getName).orElse("follows");
    }

    @AfterEach
    void close() {
        stacks.forEach(IngesterHarness::close);
    }

    private IngesterHarness stack(StackSetup options) {
        IngesterHarness stack = IngesterHarness.create(AWS, testName, options);
        stacks.add(stack);
        return stack;
    }

    private IngesterHarness stack() {
        return stack(StackSetup.defaults());
    }

    private IngesterHarness versionedStack() {
        return stack(StackSetup.defaults().withVersions());
    }

    /** Handles the next {@code count} notifications in one batch; nothing may come back. */
    private static void ingest(IngesterHarness s, int count) {
        assertEquals(Set.of(), s.handle(s.receive(count)));
    }

    @Test
    void aDeletedFileLeavesEveryBucketItsLatestEntryAndIsReportedAsARemoval() {
        // given a three-day file, the latest of its what:where, and an older file of the same what:where
        IngesterHarness s = stack();
        s.put("older.log", metadata("older", START - 2 * DAY, null));
        s.put("three-days.log", metadata("three", START, START + 2 * DAY));
        ingest(s, 2);
        s.reports(2);
        assertEquals(3, s.recordsOf("three-days.log").size());
        assertEquals("three", s.latest("syslog", "webserver02").metadata().id());

        // when it is deleted, and the notification moto sends is handled
        s.delete("three-days.log");
        ingest(s, 1);

        // then none of its records is left, the latest table holds the older file, and the entry says absent
        assertEquals(List.of(), s.recordsOf("three-days.log"));
        assertEquals(List.of("older"), s.records().stream().map(r -> r.metadata().id()).toList());
        assertEquals("older", s.latest("syslog", "webserver02").metadata().id());
        assertEquals(ObjectEntry.State.ABSENT, s.objectEntry("three-days.log").state());
        // and one success report, action remove, names the file that left
        ReceivedReport report = s.reports(1).get(0);
        assertEquals(StatusReport.Status.SUCCESS, report.report().status());
        assertEquals("remove", report.action());
        assertEquals("remove", report.attributes().get("action"));
        assertEquals(List.of(s.url("three-days.log")), report.report().records().stream().map(StatusReport.FileRecord::url).toList());
        assertEquals("three", report.report().records().get(0).metadata().id());
    }

    @Test
    void theLastFileOfAWhatWhereTakesItsLatestEntryWithIt() {
        IngesterHarness s = stack();
        s.put("only.log", metadata("only", START, null));
        ingest(s, 1);
        assertNotNull(s.latest("syslog", "webserver02"));

        s.delete("only.log");
        ingest(s, 1);

        assertNull(s.latest("syslog", "webserver02"));
        assertEquals(List.of(), s.records());
    }

    @Test
    void aDeleteMarkerRemovesTheFileAndAReuploadBringsItBack() {
        // given a versioned bucket (as template.yaml's) and an indexed file
        IngesterHarness s = versionedStack();
        s.put("marked.log", metadata("v1", START, null));
        ingest(s, 1);

        // when a delete marker hides it: moto sends nothing for it, AWS sends DeleteMarkerCreated
        String marker = s.delete("marked.log");
        assertNotNull(marker, "a versioned bucket answers the delete marker's version");
        s.notify("ObjectRemoved:DeleteMarkerCreated", "marked.log", "0055AED6DCD90281F0");
        ingest(s, 1);

        // then it is gone from the index
        assertEquals(List.of(), s.recordsOf("marked.log"));
        assertNull(s.latest("syslog", "webserver02"));

        // when it is uploaded again (a new current version)
        s.put("marked.log", metadata("v2", START + HOUR, null));
        ingest(s, 1);

        // then the new version is indexed
        assertEquals(List.of("v2"), s.recordsOf("marked.log").stream().map(r -> r.metadata().id()).toList());
        assertEquals("v2", s.latest("syslog", "webserver02").metadata().id());
        assertEquals(ObjectEntry.State.INDEXED, s.objectEntry("marked.log").state());
    }

    @Test
    void deletingANonCurrentVersionChangesNothing() {
        // given two versions of one key, both notifications handled: v2 is current and indexed
        IngesterHarness s = versionedStack();
        String v1 = s.put("versions.log", metadata("v1", START, null)).versionId();
        s.put("versions.log", metadata("v2", START + HOUR, null));
        ingest(s, 2);
        s.reports(2);
        List<Record> before = s.records();
        Record latestBefore = s.latest("syslog", "webserver02");

        // when the older version is deleted (moto notifies only when the last version goes; AWS sends
        // ObjectRemoved:Delete for any version)
        s.backend.s3().deleteObject(r -> r.bucket(s.bucket()).key("versions.log").versionId(v1));
        s.notify("ObjectRemoved:Delete", "versions.log", "0055AED6DCD90281F8");
        ingest(s, 1);

        // then the index is what it was: the current object is indexed as it is
        assertEquals(before, s.records());
        assertEquals(latestBefore, s.latest("syslog", "webserver02"));
        ReceivedReport report = s.reports(1).get(0);
        assertEquals("index", report.action());
        assertEquals("v2", report.report().records().get(0).metadata().id());
        assertTrue(report.report().message().contains("exists again"), report.report().message());
    }

    @Test
    void anOverwriteWithOtherMetadataRemovesThePreviousObjectsRecords() {
        // given a two-day file indexed under one id
        IngesterHarness s = stack();
        s.put("rewritten.log", metadata("first", START, START + DAY));
        ingest(s, 1);
        assertEquals(2, s.recordsOf("rewritten.log").size());

        // when the key is overwritten with another id, where and times
        s.put("rewritten.log", metadata("syslog", "webserver03", "second", START + 5 * DAY, null, null));
        ingest(s, 1);

        // then only the new object's record is left; the old what:where has no latest entry any more
        List<Record> records = s.recordsOf("rewritten.log");
        assertEquals(List.of("second"), records.stream().map(r -> r.metadata().id()).toList());
        assertEquals(1, s.records().size());
        assertNull(s.latest("syslog", "webserver02"));
        assertEquals("second", s.latest("syslog", "webserver03").metadata().id());
        assertEquals("second", s.objectEntry("rewritten.log").metadata().id());
        assertEquals(List.of(), s.objectEntry("rewritten.log").staleKeys());
    }

    @Test
    void anOverwriteWithoutMetadataTakesTheFileOutAndItsErrorReportNamesIt() {
        // given an indexed file
        IngesterHarness s = stack();
        s.put("plain.log", metadata("indexed", START, null));
        ingest(s, 1);
        s.reports(1);

        // when the key is overwritten with an object that has no datalake metadata (aws s3 cp, say)
        s.put("plain.log", null);
        Set<String> returned = s.handle(s.receive(1));

        // then the file leaves the index, the message is settled (dead-lettered), and the error report
        // lists the file that left, as every report lists each file indexed or removed
        assertEquals(Set.of(), returned);
        assertEquals(List.of(), s.recordsOf("plain.log"));
        assertNull(s.latest("syslog", "webserver02"));
        ReceivedReport report = s.reports(1).get(0);
        assertEquals(StatusReport.Status.ERROR, report.report().status());
        assertEquals("index", report.action());
        assertEquals(List.of(s.url("plain.log")), report.report().records().stream().map(StatusReport.FileRecord::url).toList());
        assertEquals("indexed", report.report().records().get(0).metadata().id());
        assertTrue(report.report().message().contains("no datalake metadata"), report.report().message());
    }

    @Test
    void anOverwriteWithAnEarlierStartReplacesItsOwnLatestEntry() {
        IngesterHarness s = stack();
        s.put("other.log", metadata("other", START - DAY, null));
        s.put("moved.log", metadata("late", START + DAY, null));
        ingest(s, 2);
        assertEquals("late", s.latest("syslog", "webserver02").metadata().id());

        // the same key now holds a file that starts before the other one: the other one is the latest
        s.put("moved.log", metadata("early", START - 2 * DAY, null));
        ingest(s, 1);

        assertEquals("other", s.latest("syslog", "webserver02").metadata().id());
        assertEquals(List.of("early"), s.recordsOf("moved.log").stream().map(r -> r.metadata().id()).toList());
    }

    @Test
    void aRemovalHandledBeforeItsCreationLeavesNothingAndTheCreationIsNoError() {
        // given a put and a delete of one key, both notified
        IngesterHarness s = stack();
        s.put("brief.log", metadata("brief", START, null));
        Message creation = s.receive(1).get(0);
        s.delete("brief.log");
        Message removal = s.receive(1).get(0);

        // when the removal is handled first, then the creation
        assertEquals(Set.of(), s.handle(List.of(removal)));
        assertEquals(Set.of(), s.handle(List.of(creation)));

        // then nothing is indexed, nothing is dead-lettered, and the creation's report says why
        assertEquals(List.of(), s.records());
        assertNull(s.latest("syslog", "webserver02"));
        s.assertEmpty(s.stack.deadLetterQueueUrl());
        List<ReceivedReport> reports = s.reports(2);
        ReceivedReport late = reports.stream().filter(r -> r.report().message().contains("no longer exists"))
                .findFirst().orElseThrow(() -> new AssertionError(reports.toString()));
        assertEquals(StatusReport.Status.SUCCESS, late.report().status());
        assertEquals(List.of(), late.report().records());
        assertEquals("remove", late.action());
    }

    @Test
    void aLifecycleExpirationRemovesTheFile() {
        // given an indexed file that a lifecycle rule expires (moto runs no lifecycle: the object is
        // removed and the notification AWS sends is put on the queue)
        IngesterHarness s = stack();
        s.put("expiring.log", metadata("expiring", START, null));
        ingest(s, 1);
        s.reports(1);
        s.backend.s3().deleteObject(r -> r.bucket(s.bucket()).key("expiring.log"));
        Message delete = s.receive(1).get(0);
        s.backend.sqs().deleteMessage(r -> r.queueUrl(s.stack.ingestQueueUrl()).receiptHandle(delete.receiptHandle()));
        s.notify("LifecycleExpiration:Delete", "expiring.log", "0055AED6DCD9028A00");

        // when
        ingest(s, 1);

        // then
        assertEquals(List.of(), s.records());
        assertNull(s.latest("syslog", "webserver02"));
        assertEquals("remove", s.reports(1).get(0).action());
    }

    @Test
    void theSameRemovalThreeTimesRemovesOnceAndThenChangesNothing() {
        IngesterHarness s = stack();
        s.put("keep.log", metadata("keep", START - DAY, null));
        s.put("thrice.log", metadata("thrice", START, null));
        ingest(s, 2);
        s.reports(2);
        s.delete("thrice.log");
        Message removal = s.receive(1).get(0);
        s.send(removal.body());
        s.send(removal.body());

        // when the one removal is delivered three times, in three batches
        assertEquals(Set.of(), s.handle(List.of(removal)));
        ingest(s, 1);
        ingest(s, 1);

        // then the file is removed once; the other file and its latest entry stay
        assertEquals(List.of("keep"), s.records().stream().map(r -> r.metadata().id()).toList());
        assertEquals("keep", s.latest("syslog", "webserver02").metadata().id());
        List<ReceivedReport> reports = s.reports(3);
        assertEquals(1, reports.stream().filter(r -> !r.report().records().isEmpty()).count());
        assertTrue(reports.stream().allMatch(r -> "remove".equals(r.action())
                && r.report().status() == StatusReport.Status.SUCCESS));
        s.assertEmpty(s.stack.deadLetterQueueUrl());
    }

    @Test
    void aRemovalOfAnObjectIndexedBeforePerObjectItemsIsReported() {
        // given a record written as before this change: no per-object item
        IngesterHarness s = stack();
        s.put("legacy.log", metadata("legacy", START, null));
        s.receive(1).forEach(m -> s.backend.sqs().deleteMessage(r -> r.queueUrl(s.stack.ingestQueueUrl())
                .receiptHandle(m.receiptHandle())));
        Record legacy = new RecordFactory().records(MetadataParser.parse(metadata("legacy", START, null)),
                s.url("legacy.log"), 1_000L, 10).get(0);
        s.backend.dynamoDb().putItem(r -> r.tableName(s.stack.recordsTable()).item(RecordItems.toItem(legacy)));

        // when it is deleted
        s.delete("legacy.log");
        ingest(s, 1);

        // then the removal succeeds and its report says what it could not know; the record is left for
        // the reconciliation
        ReceivedReport report = s.reports(1).get(0);
        assertEquals(StatusReport.Status.SUCCESS, report.report().status());
        assertTrue(report.report().message().contains("no per-object item"), report.report().message());
        assertTrue(report.report().message().contains("scripts/reconcile.sh"), report.report().message());
        assertEquals(List.of("legacy"), s.records().stream().map(r -> r.metadata().id()).toList());
    }

    @Test
    void perObjectItemsHaveNoWorkIdKeySoTheGsiNeverHoldsThem() {
        IngesterHarness s = stack();
        s.put("job.log", metadata("syslog", "webserver02", "job", START, null, "job-1"));
        ingest(s, 1);

        List<Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue>> index = new ArrayList<>();
        s.backend.dynamoDb().scanPaginator(r -> r.tableName(s.stack.recordsTable())
                .indexName(RecordItems.WORK_ID_INDEX)).items().forEach(index::add);
        assertEquals(1, index.size());
        assertEquals("webserver02:job", index.get(0).get(RecordItems.RANGE_KEY).s());
        assertEquals(2, s.allItems().size(), "the record and the per-object item");
    }
}
