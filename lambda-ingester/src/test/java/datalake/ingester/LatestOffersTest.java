package datalake.ingester;

import static datalake.ingester.TestFiles.BUCKET;
import static datalake.ingester.TestFiles.DAY;
import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.message;
import static datalake.ingester.TestFiles.metadata;
import static datalake.ingester.TestFiles.put;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import datalake.records.Keys.WhatWhereKey;
import datalake.records.MetadataParser;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The latest table is offered only what may win: one sandbox (one {@link Ingester}) remembers what the
 * table held, reads the entries of offers it expects to lose (one read for the batch) and skips those
 * the read proves older, while every decision stays the table's.
 */
class LatestOffersTest {
    private static final long MODIFIED = 1_715_679_064_000L;
    private static final WhatWhereKey SYSLOG_02 = new WhatWhereKey("syslog", "webserver02");

    private final FakeClock clock = new FakeClock();
    private final Fakes.Objects objects = new Fakes.Objects();
    private final Fakes.Records records = new Fakes.Records(true);
    private final Fakes.Lines lines = new Fakes.Lines();
    /** One sandbox: built once, handles every batch of a test. */
    private final Ingester sandbox = Ingester.builder()
            .recordFactory(new RecordFactory())
            .objects(objects)
            .records(records)
            .index(records)
            .latest(records)
            .reports(new Fakes.Reports())
            .deadLetters(new Fakes.DeadLetters())
            .telemetry(lines.telemetry(clock))
            .clock(clock)
            .functionName("ingester-test")
            .build();

    @AfterEach
    void stop() {
        sandbox.close();
    }

    private Set<String> ingest(String key, String id, long start) {
        objects.put(BUCKET, key, metadata(id, start, null), MODIFIED, 1);
        SQSBatchResponse response = sandbox.handle(List.of(message("m-" + id, put(key, null))),
                Deadline.after(clock, Duration.ofSeconds(30)), null);
        Set<String> retried = new HashSet<>();
        response.getBatchItemFailures().forEach(f -> retried.add(f.getItemIdentifier()));
        return retried;
    }

    private String latestId() {
        Record entry = records.latest.get(SYSLOG_02.toString());
        return entry == null ? null : entry.metadata().id();
    }

    @Test
    void filesInTimeOrderAreOfferedWithoutAnyRead() {
        ingest("a.csv", "a", START);
        ingest("b.csv", "b", START + DAY);
        ingest("c.csv", "c", START + 2 * DAY);

        assertEquals("c", latestId());
        assertEquals(3, records.offers.size());
        assertEquals(List.of(), records.latestReads);
    }

    @Test
    void anOlderFileThanTheKnownEntryIsReadNotOffered() {
        // given the newest file offered first
        ingest("new.csv", "new", START + DAY);

        // when two older files come, one batch each
        ingest("old.csv", "old", START);
        ingest("older.csv", "older", START - DAY);

        // then one read each, no offer, and the entry is the newest
        assertEquals(List.of("new"), records.offers.stream().map(r -> r.metadata().id()).toList());
        assertEquals(List.of(Set.of(SYSLOG_02), Set.of(SYSLOG_02)), records.latestReads);
        assertEquals("new", latestId());
        assertEquals(3, records.table.size());
    }

    @Test
    void anEntryMovedBackByAnotherSandboxIsSeenByTheReadAndTheOlderFileWins() {
        // given this sandbox offered the newest file, and another one then removed it from the latest table
        ingest("new.csv", "new", START + DAY);
        records.latest.remove(SYSLOG_02.toString());

        // when an older file comes: the stale hint says it loses
        ingest("old.csv", "old", START);

        // then the read shows no entry, so it is offered, and it is the latest
        assertEquals(1, records.latestReads.size());
        assertEquals(List.of("new", "old"), records.offers.stream().map(r -> r.metadata().id()).toList());
        assertEquals("old", latestId());
    }

    @Test
    void aFileAsNewAsTheEntryIsNotOfferedAndANewerOneIsOfferedWithoutARead() {
        ingest("new.csv", "new", START + DAY);
        ingest("same.csv", "same", START + DAY); // same start, same LastModified: not newer
        ingest("newer.csv", "newer", START + 2 * DAY);

        assertEquals(List.of("new", "newer"), records.offers.stream().map(r -> r.metadata().id()).toList());
        assertEquals(1, records.latestReads.size());
        assertEquals("newer", latestId());
    }

    @Test
    void aFailedReadFallsBackToTheOfferAndFailsNothing() {
        ingest("new.csv", "new", START + DAY);
        records.latestReadError = new IllegalStateException("the read failed");

        Set<String> retried = ingest("old.csv", "old", START);

        assertEquals(Set.of(), retried);
        assertEquals(2, records.offers.size());
        assertEquals("new", latestId());
    }

    @Test
    void aRefusedOfferTeachesTheSandboxWhatTheTableHolds() {
        // given another sandbox made "newest" the latest, unknown to this one
        ingest("a.csv", "a", START);
        records.latest.put(SYSLOG_02.toString(), new RecordFactory().records(
                MetadataParser.parse(metadata("newest", START + 5 * DAY, null)), "s3://b/newest", 1L, 1).get(0));

        // when this sandbox offers a file older than it, then one older than that, then one between
        ingest("b.csv", "b", START + 2 * DAY);
        ingest("c.csv", "c", START + DAY);
        ingest("d.csv", "d", START + 3 * DAY);

        // then the refusal of b was a lower bound, so c was read, not offered; the read taught the
        // sandbox the entry, so d was read too
        assertEquals(List.of("a", "b"), records.offers.stream().map(r -> r.metadata().id()).toList());
        assertEquals(2, records.latestReads.size());
        assertEquals("newest", latestId());
        assertEquals(4, records.table.size());
    }
}
