package datalake.ingester;

import static datalake.ingester.TestFiles.BUCKET;
import static datalake.ingester.TestFiles.DAY;
import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.message;
import static datalake.ingester.TestFiles.metadata;
import static datalake.ingester.TestFiles.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import datalake.dynamodb.RecordKey;
import datalake.dynamodb.StoredRecord;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.Record;
import datalake.records.RecordFactory;
import datalake.records.ShardMap;
import datalake.records.TimeBuckets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Repair and latest upkeep of files written under a layout a map change has since replaced: they keep
 * the keys the records have, never keys rebuilt with today's map (docs/DESIGN.md, "Records and keys").
 */
class MapChangeTest {
    private static final long MODIFIED = 1_715_679_064_000L;
    private static final String KEY = "2015/03/20/syslog.log";
    private static final String URL = "s3://" + BUCKET + "/" + KEY;
    private static final long D = Math.floorDiv(START, DAY);
    /** The map before the change, and after it: syslog sharded into 4 from the files' day on. */
    private static final ShardMap BEFORE = ShardMap.EMPTY;
    private static final ShardMap AFTER = BEFORE.with("syslog", new ShardMap.Entry(D, 4));

    private final FakeClock clock = new FakeClock();
    private final Fakes.Objects objects = new Fakes.Objects();
    private final Fakes.Records records = new Fakes.Records(true);
    private final List<Ingester> started = new ArrayList<>();

    @AfterEach
    void stop() {
        started.forEach(Ingester::close);
    }

    /** An ingester whose map is {@code map} (a function holds the map before a change for up to a minute). */
    private Ingester ingester(RecordsTable table, ShardMap map) {
        Ingester ingester = Ingester.builder()
                .recordFactory(new RecordFactory(TimeBuckets.DEFAULT_MAX_SPAN, null, () -> map))
                .objects(objects)
                .records(table)
                .index(records)
                .latest(records)
                .deadLetters(new Fakes.DeadLetters())
                .telemetry(new Fakes.Lines().telemetry(clock))
                .clock(clock)
                .concurrency(2)
                .build();
        started.add(ingester);
        return ingester;
    }

    private SQSBatchResponse handle(Ingester ingester, String id, String body) {
        clock.advance(Duration.ofMillis(5));
        return ingester.handle(List.of(message(id, body)), Deadline.after(clock, Duration.ofSeconds(30)), null);
    }

    private static List<String> retriedIds(SQSBatchResponse response) {
        return response.getBatchItemFailures().stream().map(SQSBatchResponse.BatchItemFailure::getItemIdentifier).toList();
    }

    @Test
    void aRepairOfAFileWrittenUnderThePreviousLayoutKeepsTheRecordItsEntriesName() {
        // given a file of D indexed under the plain key, then overwritten (same metadata, a new object);
        // the overwrite is handled by a function holding the map after the change and, observing later, by
        // one still holding the map before it, which runs in full while the first one's record write is slow
        objects.put(BUCKET, KEY, metadata("f1", START, null), MODIFIED, 10);
        assertEquals(List.of(), retriedIds(handle(ingester(records, BEFORE), "first", put(KEY, null))));
        objects.put(BUCKET, KEY, metadata("f1", START, null), MODIFIED + 1000, 10);
        Ingester behind = ingester(records, BEFORE);
        AtomicBoolean raced = new AtomicBoolean();
        RecordsTable slow = new RecordsTable() {
            @Override
            public Map<Record, Failure> write(List<Record> list, Deadline deadline) {
                if (raced.compareAndSet(false, true)) {
                    assertEquals(List.of(), retriedIds(handle(behind, "behind", put(KEY, null))));
                }
                return records.write(list, deadline);
            }

            @Override
            public Optional<StoredRecord> newest(String where, List<TimeIndexKey> days) {
                return records.newest(where, days);
            }
        };

        // when the first one's write lands, after the later commit: its check repairs what it touched
        SQSBatchResponse response = handle(ingester(slow, AFTER), "ahead", put(KEY, null));

        // then the one record of the object is the later observation's, under the plain key (which readers
        // of D read as its earlier layout), and both the per-object entry and the latest entry name it
        assertTrue(raced.get());
        assertEquals(List.of(), retriedIds(response));
        RecordKey plain = new RecordKey(D + ":syslog", "webserver02:f1");
        assertEquals(List.of(plain), records.recordsOf(URL).stream().map(RecordKey::of).toList());
        assertEquals(List.of(plain), records.objects.get(URL).recordKeys());
        Record latest = records.latest.get("syslog:webserver02");
        assertEquals(plain, RecordKey.of(latest));
        assertEquals(MODIFIED + 1000, latest.createTime());
    }

    @Test
    void aLatestEntryRecomputedAfterAChangeFindsTheFileUnderThePreviousLayout() {
        // given a file of D indexed before the change (plain key) and a newer one of D after it (its shard)
        objects.put(BUCKET, "a.log", metadata("a", START, null), MODIFIED, 10);
        handle(ingester(records, BEFORE), "a", put("a.log", null));
        objects.put(BUCKET, "b.log", metadata("b", START + 1000, null), MODIFIED, 10);
        Ingester after = ingester(records, AFTER);
        handle(after, "b", put("b.log", null));
        assertEquals("b", records.latest.get("syslog:webserver02").metadata().id());

        // when the newer one is deleted
        objects.stored.remove(BUCKET + "/b.log");
        handle(after, "delete", TestFiles.s3Event("ObjectRemoved:Delete", BUCKET, "b.log", null));

        // then the latest entry is the older file again, found under the day's previous layout
        Record latest = records.latest.get("syslog:webserver02");
        assertNotNull(latest, "the entry was recomputed, not removed");
        assertEquals("a", latest.metadata().id());
        assertFalse(latest.timeIndexKey().sharded());
    }
}
