package datalake.ingester;

import static datalake.ingester.TestFiles.BUCKET;
import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.dynamodb.RecordKey;
import datalake.dynamodb.StoredRecord;
import datalake.records.MetadataParser;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What a reconcile's repair sees of the index through {@link StoredIndex}: the ingester's own tables, and
 * without a latest table no entry to read or replace (the table the configuration does not name is never
 * touched).
 */
class StoredIndexTest {
    private static final long MODIFIED = 1_715_679_064_000L;

    private final Fakes.Objects objects = new Fakes.Objects();

    private static Record record(String id, long start) {
        return new RecordFactory().records(MetadataParser.parse(metadata(id, start, null)),
                "s3://" + BUCKET + "/" + id + ".log", MODIFIED, 1).get(0);
    }

    @Test
    void withALatestTableAnEntryIsReplacedOnlyWhileItIsTheOneExpected() {
        // given a latest table holding a file's entry, and a newer file in the records table
        Fakes.Records tables = new Fakes.Records(true);
        StoredIndex index = new StoredIndex(objects, tables, tables, Optional.of(tables));
        Record old = record("old", START);
        Record newer = record("newer", START + 1_000);
        tables.offer(old);
        tables.write(List.of(newer), null);

        // when the repair reads it, and replaces it by the newest file of its day
        Optional<StoredRecord> newest = index.newest(old.metadata().where(), List.of(old.timeIndexKey()));

        // then the entry is the old file's, and the replacement lands once: a second try expects what left
        assertTrue(index.keepsLatest());
        assertEquals(Optional.of(old), index.latest(old.whatWhereKey()));
        assertEquals(Optional.of(newer), newest.flatMap(LatestUpkeep::ours));
        assertTrue(index.replaceLatest(old, newest));
        assertEquals(Optional.of(newer), index.latest(old.whatWhereKey()));
        assertFalse(index.replaceLatest(old, Optional.empty()), "the entry changed: it stays");
        assertEquals(Optional.of(newer), index.latest(old.whatWhereKey()));
    }

    @Test
    void aNewestFileOfThePythonDatalakesFirstFormatIsTheRepairsReplacementAsStored() {
        // given a day with a file of ours, the latest, and a newer record of the Python datalake's first format
        Fakes.Records tables = new Fakes.Records(true);
        StoredIndex index = new StoredIndex(objects, tables, tables, Optional.of(tables));
        Record ours = record("ours", START);
        tables.write(List.of(ours), null);
        tables.offer(ours);
        Map<String, AttributeValue> python = TestFiles.firstFormatItem(metadata("python", START + 1_000, null));
        tables.foreign.put("python", python);

        // when the repairs read the day's newest record and make it the entry
        Optional<StoredRecord> newest = index.newest(ours.metadata().where(), List.of(ours.timeIndexKey()));
        assertTrue(index.replaceLatest(ours, newest));

        // then it is the Python datalake's, as stored, rather than the older file of ours
        assertEquals("python", newest.orElseThrow().id());
        assertEquals(python, newest.orElseThrow().item());
        assertEquals(python, tables.foreignLatest.get(ours.whatWhereKey().toString()).item());
    }

    @Test
    void withoutALatestTableThereIsNoEntryToReadOrReplace() {
        // given tables whose fake holds a latest entry, but a configuration that names no latest table
        Fakes.Records tables = new Fakes.Records(false);
        StoredIndex index = new StoredIndex(objects, tables, tables, Optional.empty());
        Record old = record("old", START);
        tables.offer(old);

        // then the repair sees none and changes none
        assertFalse(index.keepsLatest());
        assertEquals(Optional.empty(), index.latest(old.whatWhereKey()));
        assertFalse(index.replaceLatest(old, Optional.empty()));
        assertEquals(old, tables.latest.get(old.whatWhereKey().toString()), "the unnamed table is untouched");
    }

    @Test
    void anObjectsHeadItemAndRecordsAreTheIngestersOwn() {
        // given an object in the bucket and one of its records in the table, without a per-object item
        Fakes.Records tables = new Fakes.Records(false);
        StoredIndex index = new StoredIndex(objects, tables, tables, Optional.empty());
        Record stray = record("stray", START);
        objects.put(BUCKET, "stray.log", metadata("stray", START, null), MODIFIED, 1);
        tables.write(List.of(stray), null);

        // then HEAD answers as the ingester reads it, there is no item, and the record goes once
        assertEquals(MODIFIED, index.head(BUCKET, "stray.log").orElseThrow().lastModified());
        assertEquals(Optional.empty(), index.head(BUCKET, "gone.log"));
        assertEquals(Optional.empty(), index.object(stray.url()));
        assertEquals(1, index.removeRecords(stray.url(), List.of(RecordKey.of(stray))));
        assertEquals(0, index.removeRecords(stray.url(), List.of(RecordKey.of(stray))));
        assertEquals(List.of(), tables.recordsOf(stray.url()));
    }
}
