package datalake.ingester;

import static datalake.ingester.TestFiles.BUCKET;
import static datalake.ingester.TestFiles.DAY;
import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.message;
import static datalake.ingester.TestFiles.metadata;
import static datalake.ingester.TestFiles.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.RecordItems;
import datalake.dynamodb.RecordKey;
import datalake.dynamodb.StoredRecord;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.Keys.WhatWhereKey;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;

/**
 * The per-object protocol on in-memory fakes with DynamoDB's semantics, where a test decides exactly
 * what happens between two steps of a handler (a second handler's whole run, a crash).
 */
class ObjectSyncTest {
    private static final long MODIFIED = 1_715_679_064_000L;
    private static final String KEY = "2024/05/14/sensor-1.csv";
    private static final String URL = "s3://" + BUCKET + "/" + KEY;

    private final FakeClock clock = new FakeClock();
    private final Fakes.Objects objects = new Fakes.Objects();
    private final Fakes.Records records = new Fakes.Records(true);
    private final Fakes.Reports reports = new Fakes.Reports();
    private final List<Ingester> started = new ArrayList<>();

    @AfterEach
    void stop() {
        started.forEach(Ingester::close);
    }

    private Ingester ingester(RecordsTable table, ObjectIndex index) {
        return ingester(table, index, new RecordFactory());
    }

    private Ingester ingester(RecordsTable table, ObjectIndex index, RecordFactory factory) {
        return ingester(table, index, records, factory);
    }

    private Ingester ingester(RecordsTable table, ObjectIndex index, LatestTable latest, RecordFactory factory) {
        Ingester ingester = Ingester.builder()
                .recordFactory(factory)
                .objects(objects)
                .records(table)
                .index(index)
                .latest(latest)
                .reports(reports)
                .deadLetters(new Fakes.DeadLetters())
                .telemetry(new Fakes.Lines().telemetry(clock))
                .clock(clock)
                .concurrency(2)
                .build();
        started.add(ingester);
        return ingester;
    }

    private Ingester ingester() {
        return ingester(records, records);
    }

    private SQSBatchResponse handle(Ingester ingester, String id, String body) {
        clock.advance(Duration.ofMillis(5));
        return ingester.handle(List.of(message(id, body)), Deadline.after(clock, Duration.ofSeconds(30)), null);
    }

    private static String delete(String key) {
        return TestFiles.s3Event("ObjectRemoved:Delete", BUCKET, key, null);
    }

    @Test
    void aWriteThatLandsAfterALaterCommitIsAlignedWithTheLaterEntry() {
        // given an object being indexed by one handler, whose record write is so slow that another
        // handler sees the object deleted and handles that in full before the write lands
        objects.put(BUCKET, KEY, metadata("f1", START, START + DAY), MODIFIED, 10);
        Ingester other = ingester();
        AtomicBoolean raced = new AtomicBoolean();
        RecordsTable slow = new RecordsTable() {
            @Override
            public Map<Record, Failure> write(List<Record> list, Deadline deadline) {
                if (raced.compareAndSet(false, true)) {
                    objects.stored.clear();
                    assertEquals(List.of(), retriedIds(handle(other, "delete", delete(KEY))));
                }
                return records.write(list, deadline);
            }

            @Override
            public Optional<StoredRecord> newest(String where, List<TimeIndexKey> days) {
                return records.newest(where, days);
            }
        };

        // when
        SQSBatchResponse response = handle(ingester(slow, records), "put", put(KEY, null));

        // then the late write was undone: the index is the bucket's (nothing), and both messages succeeded
        assertTrue(raced.get());
        assertEquals(List.of(), retriedIds(response));
        assertEquals(List.of(), records.recordsOf(URL));
        assertEquals(ObjectEntry.State.ABSENT, records.objects.get(URL).state());
        assertNull(records.latest.get("syslog:webserver02"));
    }

    @Test
    void aLaterObservationAlreadyCommittedMakesAnEarlierOneWriteNothing() {
        // given the index holding an observation made after this handler's (the object is gone by then)
        objects.put(BUCKET, KEY, metadata("f1", START, null), MODIFIED, 10);
        records.objects.put(URL, new ObjectEntry(URL, Long.MAX_VALUE, "later", ObjectEntry.State.ABSENT, null, 0, 0,
                null, null, null, List.of(), List.of(), null));

        // when a stale creation event is handled
        SQSBatchResponse response = handle(ingester(), "put", put(KEY, null));

        // then it writes nothing and still succeeds
        assertEquals(List.of(), retriedIds(response));
        assertTrue(records.table.isEmpty());
        assertEquals("later", records.objects.get(URL).commitId());
        assertEquals("success", reports.of("put").report().status().json());
    }

    @Test
    void keysLeftByAHandlerThatStoppedAfterItsCommitAreDeletedByTheNext() {
        // given a two-day file indexed, then overwritten by a one-day file of another id, and the
        // deletes of the first handler of the overwrite failing (as if its sandbox died after the commit)
        objects.put(BUCKET, KEY, metadata("old", START, START + DAY), MODIFIED, 10);
        assertEquals(List.of(), retriedIds(handle(ingester(), "first", put(KEY, null))));
        objects.put(BUCKET, KEY, metadata("new", START + 3 * DAY, null), MODIFIED + 1000, 10);
        AtomicInteger failures = new AtomicInteger();
        ObjectIndex dying = new DelegatingIndex(records) {
            @Override
            public int removeRecords(String url, Collection<RecordKey> keys) {
                failures.incrementAndGet();
                throw new IllegalStateException("the sandbox stopped");
            }
        };
        SQSBatchResponse interrupted = handle(ingester(records, dying), "second", put(KEY, null));
        assertEquals(List.of("second"), retriedIds(interrupted));
        assertEquals(1, failures.get());
        assertEquals(2, records.objects.get(URL).staleKeys().size(), "the old keys wait in the stale list");

        // when the message comes again, to a healthy handler
        SQSBatchResponse again = handle(ingester(), "second", put(KEY, null));

        // then the old file's records are gone and the entry holds no stale keys
        assertEquals(List.of(), retriedIds(again));
        assertEquals(List.of("new"), records.recordsOf(URL).stream().map(r -> r.metadata().id()).toList());
        assertEquals(List.of(), records.objects.get(URL).staleKeys());
    }

    @Test
    void aCommitRetriedWhileItsWritesFailAddsNoKeyTwiceToTheStaleList() {
        // given a three-day file indexed, overwritten by a thirty-day file of another id whose record writes
        // fail (throttled past the time budget) for twenty deliveries of its message
        objects.put(BUCKET, KEY, metadata("old", START, START + 2 * DAY), MODIFIED, 10);
        assertEquals(List.of(), retriedIds(handle(ingester(), "first", put(KEY, null))));
        Set<RecordKey> oldKeys = Set.copyOf(records.objects.get(URL).recordKeys());
        objects.put(BUCKET, KEY, metadata("new", START, START + 29 * DAY), MODIFIED + 1000, 10);
        records.writeFailure = r -> new Failure(ErrorKind.TIME_BUDGET, "still unprocessed.");
        Ingester throttled = ingester();
        for (int delivery = 1; delivery <= 20; delivery++) {
            assertEquals(List.of("second"), retriedIds(handle(throttled, "second", put(KEY, null))));
        }

        // then the stale list holds each key of the layouts that were at most once: the old file's, none of
        // the new file's (its own handler writes those), however many deliveries failed
        ObjectEntry entry = records.objects.get(URL);
        assertEquals(30, entry.recordKeys().size());
        assertEquals(oldKeys.size(), entry.staleKeys().size(), "no key twice");
        assertEquals(oldKeys, Set.copyOf(entry.staleKeys()));

        // when the writes work again
        records.writeFailure = r -> null;
        SQSBatchResponse healed = handle(throttled, "second", put(KEY, null));

        // then the new file is indexed, the old one's records are gone and the entry holds no stale keys
        assertEquals(List.of(), retriedIds(healed));
        assertEquals(30, records.recordsOf(URL).size());
        assertEquals(Set.of("new"), records.recordsOf(URL).stream().map(r -> r.metadata().id()).collect(Collectors.toSet()));
        assertEquals(List.of(), records.objects.get(URL).staleKeys());
    }

    @Test
    void aRemovalRedeliveredAfterItsCommitTidiesTheLatestTableAndReportsTheFileItRemoved() {
        // given a three-day file indexed and the latest of its what:where, then deleted, and the first
        // delivery of the removal throttled after its commit and one delete
        objects.put(BUCKET, KEY, metadata("f1", START, START + 2 * DAY), MODIFIED, 10);
        assertEquals(List.of(), retriedIds(handle(ingester(), "put", put(KEY, null))));
        objects.stored.clear();
        assertEquals(List.of("delete"), retriedIds(handle(ingester(records, throttledAfterOneDelete()), "delete", delete(KEY))));
        assertEquals(2, records.recordsOf(URL).size());

        // when the removal comes again, to a healthy handler
        SQSBatchResponse again = handle(ingester(), "delete", delete(KEY));

        // then the index is the bucket's (nothing of the file, not even its latest entry), and the report
        // lists the file the removal took out, with its what for subscription filters
        assertEquals(List.of(), retriedIds(again));
        assertEquals(List.of(), records.recordsOf(URL));
        assertNull(records.latest.get("syslog:webserver02"));
        ObjectEntry entry = records.objects.get(URL);
        assertEquals(List.of(), entry.staleKeys());
        assertNull(entry.replaced());
        Report report = reports.of("delete");
        assertEquals(URL + " was removed; its file left the index.", report.report().message());
        assertEquals(List.of("f1"), report.report().records().stream().map(r -> r.metadata().id()).toList());
        assertEquals(MODIFIED, report.report().records().get(0).createTime());
        assertEquals("syslog", report.what());
        assertEquals(Report.Action.REMOVE, report.action());
    }

    @Test
    void anOverwriteByAnotherWhatRedeliveredAfterItsCommitLeavesOnlyTheNewFileLatest() {
        // given a syslog file indexed, overwritten by an nginx file of the same where, and the first
        // delivery of the overwrite throttled after its commit and one delete
        objects.put(BUCKET, KEY, metadata("syslog", "web1", "old", START, START + 2 * DAY, null), MODIFIED, 10);
        assertEquals(List.of(), retriedIds(handle(ingester(), "put", put(KEY, null))));
        objects.put(BUCKET, KEY, metadata("nginx", "web1", "new", START + 5 * DAY, null, null), MODIFIED + 1000, 10);
        assertEquals(List.of("overwrite"), retriedIds(handle(ingester(records, throttledAfterOneDelete()), "overwrite",
                put(KEY, null))));

        // when the overwrite comes again, to a healthy handler
        SQSBatchResponse again = handle(ingester(), "overwrite", put(KEY, null));

        // then only the nginx file is indexed, and the latest table names it alone
        assertEquals(List.of(), retriedIds(again));
        assertEquals(List.of("new"), records.recordsOf(URL).stream().map(r -> r.metadata().id()).toList());
        assertEquals(List.of("nginx:web1"), List.copyOf(records.latest.keySet()));
        assertEquals("nginx", reports.of("overwrite").what());
    }

    @Test
    void anOverwriteWithoutMetadataRedeliveredAfterItsCommitIsDeadLetteredWithTheFileItRemoved() {
        // given a file indexed, overwritten by an object without datalake metadata, and the first delivery
        // of the overwrite throttled after its commit and one delete
        objects.put(BUCKET, KEY, metadata("f1", START, START + 2 * DAY), MODIFIED, 10);
        assertEquals(List.of(), retriedIds(handle(ingester(), "put", put(KEY, null))));
        objects.put(BUCKET, KEY, null, MODIFIED + 1000, 10);
        assertEquals(List.of("overwrite"), retriedIds(handle(ingester(records, throttledAfterOneDelete()), "overwrite",
                put(KEY, null))));

        // when the overwrite comes again, to a healthy handler
        SQSBatchResponse again = handle(ingester(), "overwrite", put(KEY, null));

        // then nothing of the key is indexed or latest, and the error report names the file that left
        assertEquals(List.of(), retriedIds(again));
        assertEquals(List.of(), records.recordsOf(URL));
        assertNull(records.latest.get("syslog:webserver02"));
        Report report = reports.of("overwrite");
        assertEquals("error", report.report().status().json());
        assertEquals(List.of("f1"), report.report().records().stream().map(r -> r.metadata().id()).toList());
        assertEquals("syslog", report.what());
    }

    @Test
    void aFileFoundAgainAsTheIndexHoldsItLeavesItsHandlerNothingToForget() {
        // given a file indexed, and an index that counts the writes clearing what a commit left
        objects.put(BUCKET, KEY, metadata("old", START, START + DAY), MODIFIED, 10);
        assertEquals(List.of(), retriedIds(handle(ingester(), "put", put(KEY, null))));
        AtomicInteger forgets = new AtomicInteger();
        ObjectIndex counting = new DelegatingIndex(records) {
            @Override
            public void clearStale(String url, String commitId) {
                forgets.incrementAndGet();
                records.clearStale(url, commitId);
            }
        };

        // when the same file is delivered again (a redelivery, a backfill run twice)
        assertEquals(List.of(), retriedIds(handle(ingester(records, counting), "again", put(KEY, null))));

        // then its handler writes nothing to forget: the entry holds no replaced file, no stale key
        assertEquals(0, forgets.get());
        assertFalse(records.objects.get(URL).unfinished());

        // and an overwrite by another file keeps only the old file's keys to delete, not its identity
        objects.put(BUCKET, KEY, metadata("new", START + 3 * DAY, null), MODIFIED + 1000, 10);
        assertEquals(List.of(), retriedIds(handle(ingester(records, counting), "overwrite", put(KEY, null))));
        assertEquals(1, forgets.get());
        assertFalse(records.objects.get(URL).unfinished());
    }

    /** A step of a handler whose call takes the rest of the batch's time budget. */
    enum SlowStep { WRITE, DELETE, OFFER, TIDY, FORGET }

    @ParameterizedTest
    @EnumSource(value = SlowStep.class, names = {"WRITE", "DELETE", "OFFER"})
    void aDeadlinePassingDuringAStepStartsNoLaterOneAndTheRedeliveryFinishesThem(SlowStep slow) {
        // given a two-day file indexed, then overwritten by a one-day file of another id, and a handler of
        // the overwrite one of whose steps (writing, deleting, offering) ends past the batch's 30 s budget
        objects.put(BUCKET, KEY, metadata("old", START, START + DAY), MODIFIED, 10);
        assertEquals(List.of(), retriedIds(handle(ingester(), "put", put(KEY, null))));
        objects.put(BUCKET, KEY, metadata("new", START + 3 * DAY, null), MODIFIED + 1000, 10);
        AtomicBoolean spent = new AtomicBoolean();
        List<SlowStep> startedLate = new CopyOnWriteArrayList<>();
        Consumer<SlowStep> calling = step -> {
            if (spent.get()) {
                startedLate.add(step);
            }
            if (step == slow) {
                clock.advance(Duration.ofSeconds(31));
                spent.set(true);
            }
        };
        RecordsTable table = new RecordsTable() {
            @Override
            public Map<Record, Failure> write(List<Record> list, Deadline deadline) {
                calling.accept(SlowStep.WRITE);
                return records.write(list, deadline);
            }

            @Override
            public Optional<StoredRecord> newest(String where, List<TimeIndexKey> days) {
                return records.newest(where, days);
            }
        };
        ObjectIndex index = new DelegatingIndex(records) {
            @Override
            public int removeRecords(String url, Collection<RecordKey> keys) {
                calling.accept(SlowStep.DELETE);
                return records.removeRecords(url, keys);
            }

            @Override
            public void clearStale(String url, String commitId) {
                calling.accept(SlowStep.FORGET);
                records.clearStale(url, commitId);
            }
        };
        LatestTable latest = new DelegatingLatest(records) {
            @Override
            public boolean offer(Record record) {
                calling.accept(SlowStep.OFFER);
                return records.offer(record);
            }

            @Override
            public Optional<StoredRecord> current(WhatWhereKey key) {
                calling.accept(SlowStep.TIDY);
                return records.current(key);
            }
        };

        // when the overwrite is handled
        SQSBatchResponse late = handle(ingester(table, index, latest, new RecordFactory()), "overwrite", put(KEY, null));

        // then no later step started after the deadline (the check's read-back aside): the message comes
        // back, and its entry keeps what the handler did not finish (the old file's keys and identity)
        assertTrue(spent.get());
        assertEquals(List.of(), startedLate);
        assertEquals(List.of("overwrite"), retriedIds(late));
        assertTrue(records.objects.get(URL).unfinished(), "the entry after the slow " + slow);

        // and when it comes again, to a healthy handler, the index is the bucket's
        assertEquals(List.of(), retriedIds(handle(ingester(), "overwrite", put(KEY, null))));
        assertEquals(List.of("new"), records.recordsOf(URL).stream().map(r -> r.metadata().id()).toList());
        assertEquals("new", records.latest.get("syslog:webserver02").metadata().id());
        assertFalse(records.objects.get(URL).unfinished());
    }

    @Test
    void aDeadlinePassingBeforeTheForgetLeavesTheClearToTheNextCommitAndTheObjectSucceeds() {
        // given a two-day file indexed, then overwritten by a one-day file of another id, and a handler of
        // the overwrite whose tidying of the latest table, its last step before the forget, ends past the
        // batch's 30 s budget
        objects.put(BUCKET, KEY, metadata("old", START, START + DAY), MODIFIED, 10);
        assertEquals(List.of(), retriedIds(handle(ingester(), "put", put(KEY, null))));
        objects.put(BUCKET, KEY, metadata("new", START + 3 * DAY, null), MODIFIED + 1000, 10);
        AtomicInteger clears = new AtomicInteger();
        ObjectIndex index = new DelegatingIndex(records) {
            @Override
            public void clearStale(String url, String commitId) {
                clears.incrementAndGet();
                records.clearStale(url, commitId);
            }
        };
        LatestTable slowTidy = new DelegatingLatest(records) {
            @Override
            public Optional<StoredRecord> current(WhatWhereKey key) {
                clock.advance(Duration.ofSeconds(31));
                return records.current(key);
            }
        };

        // when the overwrite is handled
        SQSBatchResponse late = handle(ingester(records, index, slowTidy, new RecordFactory()), "overwrite",
                put(KEY, null));

        // then the object is done and succeeds: the index and the latest table hold the new file alone, and
        // the entry, not cleared, keeps the old file's keys (deleted already) for the next commit
        assertEquals(List.of(), retriedIds(late));
        assertEquals("success", reports.of("overwrite").report().status().json());
        assertEquals(List.of("new"), records.recordsOf(URL).stream().map(r -> r.metadata().id()).toList());
        assertEquals("new", records.latest.get("syslog:webserver02").metadata().id());
        assertEquals(0, clears.get());
        assertTrue(records.objects.get(URL).unfinished());

        // and the next commit of the key (the file delivered again) takes them over and clears them
        assertEquals(List.of(), retriedIds(handle(ingester(records, index), "again", put(KEY, null))));
        assertEquals(List.of("new"), records.recordsOf(URL).stream().map(r -> r.metadata().id()).toList());
        assertFalse(records.objects.get(URL).unfinished());
    }

    @Test
    void aForgetCutShortAtTheDeadlineLeavesTheClearToTheNextCommitAndTheObjectSucceeds() {
        // given a two-day file indexed, then overwritten by a one-day file of another id, and a handler of
        // the overwrite whose clear starts before the deadline and is cut there, as CallDeadline cuts a call
        objects.put(BUCKET, KEY, metadata("old", START, START + DAY), MODIFIED, 10);
        assertEquals(List.of(), retriedIds(handle(ingester(), "put", put(KEY, null))));
        objects.put(BUCKET, KEY, metadata("new", START + 3 * DAY, null), MODIFIED + 1000, 10);
        ObjectIndex index = new DelegatingIndex(records) {
            @Override
            public void clearStale(String url, String commitId) {
                clock.advance(Duration.ofSeconds(31));
                throw ApiCallTimeoutException.builder().message("cut").cause(
                        new OutOfTimeException("the invocation's time budget ran out during DynamoDb UpdateItem.")).build();
            }
        };

        // when the overwrite is handled
        SQSBatchResponse late = handle(ingester(records, index), "overwrite", put(KEY, null));

        // then, every step but the clear done, it succeeds as a forget not started does: nothing comes back
        assertEquals(List.of(), retriedIds(late));
        assertEquals("success", reports.of("overwrite").report().status().json());
        assertEquals(List.of("new"), records.recordsOf(URL).stream().map(r -> r.metadata().id()).toList());
        assertTrue(records.objects.get(URL).unfinished());
    }

    /**
     * The handler of a key's last change commits what it saw even when the index already holds it so: had it
     * committed nothing (ba5e74f, reverted), a concurrent handler's earlier observation of the key as absent
     * would commit after it and win. The sequence is a review's.
     */
    @Test
    void aDeleteMarkerRemovedWhileTheMarkersHandlerIsInFlightLeavesTheObjectIndexed() {
        // given (versioned bucket) v1 indexed by its put's handler
        String v1 = metadata("f1", START, START + DAY);
        objects.put(BUCKET, KEY, v1, MODIFIED, 10);
        assertEquals(List.of(), retriedIds(handle(ingester(), "put",
                TestFiles.s3Event("ObjectCreated:Put", BUCKET, KEY, "01"))));
        assertEquals(2, records.recordsOf(URL).size());

        // when the user deletes the key (a delete marker: event 02), and its handler HEADs (404) and, before
        // its commit, the user deletes the marker (v1 current again: event 03), whose handler runs in full
        objects.stored.clear();
        Ingester undeleter = ingester();
        AtomicBoolean raced = new AtomicBoolean();
        ObjectIndex slowCommit = new DelegatingIndex(records) {
            @Override
            public Commit commit(ObjectEntry entry) {
                if (raced.compareAndSet(false, true)) {
                    objects.put(BUCKET, KEY, v1, MODIFIED, 10);
                    assertEquals(List.of(), retriedIds(handle(undeleter, "undelete",
                            TestFiles.s3Event("ObjectRemoved:Delete", BUCKET, KEY, "03"))));
                }
                return records.commit(entry);
            }
        };
        SQSBatchResponse marker = handle(ingester(records, slowCommit), "marker",
                TestFiles.s3Event("ObjectRemoved:DeleteMarkerCreated", BUCKET, KEY, "02"));

        // then the index is the bucket's: v1 and its records (both messages succeeded, nothing comes again)
        assertTrue(raced.get());
        assertEquals(List.of(), retriedIds(marker));
        assertEquals(ObjectEntry.State.INDEXED, records.objects.get(URL).state(), "the index lost v1");
        assertEquals(2, records.recordsOf(URL).size());
    }

    @Test
    void aDuplicateRemovalWhoseCommitReadTheEntryBeforeTheFirstHandlersClearListsNoFile() {
        // given a two-day file indexed, then deleted, and a duplicate delivery of the removal whose commit
        // reads the entry (as DynamoObjectIndex does, then writes on the condition that it is unchanged)
        // just before the first handler's clear, and writes after it
        objects.put(BUCKET, KEY, metadata("f1", START, START + DAY), MODIFIED, 10);
        assertEquals(List.of(), retriedIds(handle(ingester(), "put", put(KEY, null))));
        objects.stored.clear();
        AtomicReference<String> clearing = new AtomicReference<>();
        Ingester duplicate = ingester(records, readThenWrite(() -> {
            String commit = clearing.getAndSet(null);
            if (commit != null) {
                records.clearStale(URL, commit);
            }
        }));
        ObjectIndex first = new DelegatingIndex(records) {
            @Override
            public void clearStale(String url, String commitId) {
                clearing.set(commitId);
                assertEquals(List.of(), retriedIds(handle(duplicate, "duplicate", delete(KEY))));
                records.clearStale(url, commitId);
            }
        };

        // when the removal is handled
        assertEquals(List.of(), retriedIds(handle(ingester(records, first), "delete", delete(KEY))));

        // then the first handler's report lists the file it removed; the duplicate's, which found the entry
        // cleared once its write was refused, lists none; and the entry holds nothing to finish
        assertEquals(List.of("f1"), reports.of("delete").report().records().stream().map(r -> r.metadata().id())
                .toList());
        Report twice = reports.of("duplicate");
        assertEquals(URL + " was removed; it was not in the index.", twice.report().message());
        assertEquals(List.of(), twice.report().records());
        assertFalse(records.objects.get(URL).unfinished());
        assertEquals(List.of(), records.recordsOf(URL));
    }

    /**
     * The index, its commits made as DynamoObjectIndex makes them: read the entry, then ({@code between}
     * run first) write over it on the condition that its commit id is unchanged, else read again.
     */
    private ObjectIndex readThenWrite(Runnable between) {
        return new DelegatingIndex(records) {
            @Override
            public Commit commit(ObjectEntry entry) {
                for (int round = 0; round < DynamoObjectIndex.MAX_COMMIT_ROUNDS; round++) {
                    ObjectEntry seen = records.read(List.of(entry.url())).get(entry.url());
                    if (seen != null && seen.observedAt() > entry.observedAt()) {
                        return Commit.REJECTED;
                    }
                    between.run();
                    synchronized (records) {
                        ObjectEntry now = records.objects.get(entry.url());
                        if (Objects.equals(now == null ? null : now.commitId(), seen == null ? null : seen.commitId())) {
                            records.objects.put(entry.url(), entry.over(seen));
                            return new Commit(true, seen);
                        }
                    }
                }
                throw new ContentionException(entry.url() + ": changed under each commit.");
            }
        };
    }

    /** The index, but its next removeRecords deletes one record and is then throttled: a handler failing after its commit. */
    private ObjectIndex throttledAfterOneDelete() {
        AtomicBoolean thrown = new AtomicBoolean();
        return new DelegatingIndex(records) {
            @Override
            public int removeRecords(String url, Collection<RecordKey> keys) {
                if (thrown.compareAndSet(false, true)) {
                    records.removeRecords(url, List.copyOf(keys).subList(0, 1));
                    throw ProvisionedThroughputExceededException.builder().statusCode(400).message("throttled").build();
                }
                return records.removeRecords(url, keys);
            }
        };
    }

    @Test
    void aRemovalLeavesARecordThatAnotherObjectHoldsNow() {
        // given an object and a copy of it under another key: same metadata, same record key, the
        // copy's record written last
        String metadata = metadata("f1", START, null);
        objects.put(BUCKET, "original.csv", metadata, MODIFIED, 10);
        objects.put(BUCKET, "copy.csv", metadata, MODIFIED + 1000, 10);
        Ingester ingester = ingester();
        handle(ingester, "original", put("original.csv", null));
        handle(ingester, "copy", put("copy.csv", null));

        // when the original is deleted
        objects.stored.remove(BUCKET + "/original.csv");
        handle(ingester, "delete", delete("original.csv"));

        // then the copy's record stays, and stays the latest
        assertEquals(List.of("s3://" + BUCKET + "/copy.csv"), records.table.values().stream().map(Record::url).toList());
        assertEquals("s3://" + BUCKET + "/copy.csv", records.latest.get("syslog:webserver02").url());
    }

    @Test
    void aFileIndexedUnderAWiderSpanLimitIsRemovedAfterTheLimitIsLowered() {
        // given a file of 21 days and another of the same what:where, indexed while 30 days were allowed
        objects.put(BUCKET, "long.csv", metadata("long", START, START + 20 * DAY), MODIFIED, 10);
        objects.put(BUCKET, "short.csv", metadata("short", START - 5 * DAY, null), MODIFIED, 10);
        Ingester before = ingester();
        handle(before, "long", put("long.csv", null));
        handle(before, "short", put("short.csv", null));
        assertEquals("long", records.latest.get("syslog:webserver02").metadata().id());

        // when the limit is lowered to 10 days, and the long file is then deleted
        Ingester after = ingester(records, records, new RecordFactory(10, null));
        objects.stored.remove(BUCKET + "/long.csv");
        SQSBatchResponse response = handle(after, "delete", delete("long.csv"));

        // then the removal succeeds: its records are gone, and the latest entry is the file that is left
        assertEquals(List.of(), retriedIds(response));
        assertEquals("success", reports.of("delete").report().status().json());
        assertEquals(List.of("short"), records.table.values().stream().map(r -> r.metadata().id()).toList());
        assertEquals("short", records.latest.get("syslog:webserver02").metadata().id());
    }

    @Test
    void aCommitThatFailsSendsTheMessageBackAndWritesNothing() {
        objects.put(BUCKET, KEY, metadata("f1", START, null), MODIFIED, 10);
        ObjectIndex down = new DelegatingIndex(records) {
            @Override
            public Commit commit(ObjectEntry entry) {
                throw software.amazon.awssdk.services.dynamodb.model.DynamoDbException.builder().statusCode(500)
                        .message("internal").build();
            }
        };

        SQSBatchResponse response = handle(ingester(records, down), "put", put(KEY, null));

        assertEquals(List.of("put"), retriedIds(response));
        assertTrue(records.table.isEmpty());
        assertNull(reports.of("put"));
    }

    @Test
    void aRecomputedLatestEntryIsTheFirstBucketRecordOfTheNewestFile() {
        // given two files of one what:where, the newer one spanning two days, then the newest one removed
        objects.put(BUCKET, "a.csv", metadata("a", START - 5 * DAY, START - 4 * DAY), MODIFIED, 10);
        objects.put(BUCKET, "b.csv", metadata("b", START, null), MODIFIED, 10);
        Ingester ingester = ingester();
        handle(ingester, "a", put("a.csv", null));
        handle(ingester, "b", put("b.csv", null));
        objects.stored.remove(BUCKET + "/b.csv");

        handle(ingester, "delete", delete("b.csv"));

        Record latest = records.latest.get("syslog:webserver02");
        assertEquals("a", latest.metadata().id());
        assertEquals(new RecordFactory().records(latest.metadata(), latest.url(), latest.createTime(), latest.size()).get(0),
                latest);
    }

    @Test
    void aLatestEntryOfThePythonDatalakesFormatNamingARemovedObjectIsReplaced() {
        // given a feed's older file and its newest one, whose latest entry is the Python datalake's (no size)
        objects.put(BUCKET, "old.csv", metadata("old", START - 2 * DAY, null), MODIFIED, 10);
        objects.put(BUCKET, "new.csv", metadata("new", START, null), MODIFIED, 10);
        Ingester ingester = ingester();
        handle(ingester, "old", put("old.csv", null));
        handle(ingester, "new", put("new.csv", null));
        Map<String, AttributeValue> python = new HashMap<>(RecordItems.toLatestItem(records.latest.remove("syslog:webserver02")));
        python.remove(RecordItems.SIZE);
        records.foreignLatest.put("syslog:webserver02", StoredRecord.fromItem(python));

        // when the newest file is removed
        objects.stored.remove(BUCKET + "/new.csv");
        handle(ingester, "delete", delete("new.csv"));

        // then the entry is the older file's, not the removed one's
        assertEquals(null, records.foreignLatest.get("syslog:webserver02"));
        assertEquals("old", records.latest.get("syslog:webserver02").metadata().id());
    }

    @Test
    void aRemovedLatestFileIsReplacedByANewerFileOfThePythonDatalakesFirstRecordFormat() {
        // given a feed's older file of ours, a newer record the Python datalake wrote in its first format
        // (no create_time, no size), and our newest file, the latest
        objects.put(BUCKET, "old.csv", metadata("old", START - 2 * DAY, null), MODIFIED, 10);
        objects.put(BUCKET, "new.csv", metadata("new", START, null), MODIFIED, 10);
        Map<String, AttributeValue> python = TestFiles.firstFormatItem(metadata("python", START - DAY, null));
        records.foreign.put("python", python);
        Ingester ingester = ingester();
        handle(ingester, "old", put("old.csv", null));
        handle(ingester, "new", put("new.csv", null));
        assertEquals("new", latestId("syslog:webserver02"));

        // when our newest file is deleted
        objects.stored.remove(BUCKET + "/new.csv");
        handle(ingester, "delete", delete("new.csv"));

        // then the entry is the Python datalake's file, its item as stored and keyed by what:where
        assertEquals("python", latestId("syslog:webserver02"));
        Map<String, AttributeValue> expected = new HashMap<>(python);
        expected.put(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS("syslog:webserver02"));
        assertEquals(expected, records.foreignLatest.get("syslog:webserver02").toLatestItem());
    }

    /** The id of the latest-table entry, of ours or another writer's; null without one. */
    private String latestId(String whatWhere) {
        Record ours = records.latest.get(whatWhere);
        StoredRecord other = records.foreignLatest.get(whatWhere);
        return ours != null ? ours.metadata().id() : other != null ? other.id() : null;
    }

    private static List<String> retriedIds(SQSBatchResponse response) {
        return response.getBatchItemFailures().stream().map(SQSBatchResponse.BatchItemFailure::getItemIdentifier).toList();
    }

    /** A latest table that forwards everything; tests override the call they slow down. */
    private static class DelegatingLatest implements LatestTable {
        private final LatestTable to;

        DelegatingLatest(LatestTable to) {
            this.to = to;
        }

        @Override
        public boolean offer(Record record) {
            return to.offer(record);
        }

        @Override
        public Optional<StoredRecord> current(WhatWhereKey key) {
            return to.current(key);
        }

        @Override
        public Map<WhatWhereKey, Record> current(Collection<WhatWhereKey> keys) {
            return to.current(keys);
        }

        @Override
        public boolean replace(StoredRecord expected, Optional<StoredRecord> replacement) {
            return to.replace(expected, replacement);
        }
    }

    /** An index that forwards everything; tests override the call they break. */
    private static class DelegatingIndex implements ObjectIndex {
        private final ObjectIndex to;

        DelegatingIndex(ObjectIndex to) {
            this.to = to;
        }

        @Override
        public Commit commit(ObjectEntry entry) {
            return to.commit(entry);
        }

        @Override
        public Map<String, ObjectEntry> read(Collection<String> urls) {
            return to.read(urls);
        }

        @Override
        public int removeRecords(String url, Collection<RecordKey> keys) {
            return to.removeRecords(url, keys);
        }

        @Override
        public void clearStale(String url, String commitId) {
            to.clearStale(url, commitId);
        }
    }
}
