package datalake.ingester;

import static datalake.ingester.TestFiles.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.ObjectItems;
import datalake.dynamodb.RecordItems;
import datalake.dynamodb.RecordKey;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.emulators.DatalakeStack;
import datalake.records.Metadata;
import datalake.records.MetadataParser;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/** {@link DynamoObjectIndex}'s conditional writes as dynalite evaluates them. */
@ExtendWith(EmulatorsExtension.class)
class DynamoObjectIndexIT {
    private static final String URL = "s3://bucket/2024/05/14/a b+c.log";
    private final DynamoDbClient dynamoDb = Emulators.shared().dynamoDb();
    private String table;
    private DynamoObjectIndex index;

    @BeforeEach
    void table() {
        table = DatalakeStack.builder(Emulators.shared()).prefix(DatalakeStack.uniquePrefix("objects")).tablesOnly().build()
                .recordsTable();
        index = new DynamoObjectIndex(dynamoDb, table, Backoff.standard());
    }

    private static Metadata metadata(String id, long start) {
        return MetadataParser.parse(TestFiles.metadata(id, start, null));
    }

    private static ObjectEntry indexed(long observedAt, String id, long start) {
        Metadata metadata = metadata(id, start);
        List<Record> records = new RecordFactory().records(metadata, URL, 1_000L, 10);
        return new ObjectEntry(URL, observedAt, "commit-" + observedAt, ObjectEntry.State.INDEXED, metadata, 1_000L, 10,
                "etag", "v1", "0055", ObjectSync.keys(records), List.of(), null);
    }

    private static ObjectEntry absent(long observedAt) {
        return new ObjectEntry(URL, observedAt, "commit-" + observedAt, ObjectEntry.State.ABSENT, null, 0, 0, null, null,
                null, List.of(), List.of(), observedAt / 1_000_000 + 60);
    }

    @Test
    void aCommitReturnsWhatItReplacedAndKeepsItsKeysForDeletionInTheSameWrite() {
        ObjectEntry first = indexed(100, "first", START);
        assertNull(index.commit(first).previous());

        ObjectIndex.Commit second = index.commit(absent(200));

        assertTrue(second.accepted());
        assertEquals(first, second.previous());
        ObjectEntry stored = index.read(List.of(URL)).get(URL);
        assertEquals(ObjectEntry.State.ABSENT, stored.state());
        assertEquals(first.recordKeys(), stored.staleKeys());
        assertNull(stored.metadata());
        assertNull(stored.etag(), "the attributes of the object that was are removed");
        assertEquals(Long.valueOf(200 / 1_000_000 + 60), stored.expiresAt());
    }

    @Test
    void aCommitMadeAgainAndAgainAddsNoKeyTwiceToTheStaleKeys() {
        // given a file indexed, then another file's observation committed twenty times (its message
        // redelivered while its handler fails after the commit)
        ObjectEntry first = indexed(100, "first", START);
        index.commit(first);
        for (int delivery = 1; delivery <= 20; delivery++) {
            assertTrue(index.commit(indexed(100 + delivery, "second", START + TestFiles.DAY)).accepted());
        }

        // then the stale keys are the first file's, once: the item stays the size of its two layouts
        ObjectEntry stored = index.read(List.of(URL)).get(URL);
        assertEquals(first.recordKeys(), stored.staleKeys());
        assertEquals("second", stored.metadata().id());
    }

    @Test
    void aCommitThatAnotherOvertakesBetweenItsReadAndItsWriteReadsAgainAndKeepsItsKeys() {
        // given a file indexed, and a handler whose first write of its commit is preceded by another
        // handler's whole commit (a second file, observed earlier)
        ObjectEntry first = indexed(100, "first", START);
        index.commit(first);
        ObjectEntry other = indexed(150, "other", START + TestFiles.DAY);
        AtomicBoolean overtaken = new AtomicBoolean();
        DynamoDbClient racing = overtaking(() -> {
            if (overtaken.compareAndSet(false, true)) {
                assertTrue(index.commit(other).accepted());
            }
        });

        // when this handler commits the object's removal
        ObjectIndex.Commit commit = new DynamoObjectIndex(racing, table, Backoff.standard()).commit(absent(200));

        // then its commit replaced the other's, and the keys of both files wait for deletion
        assertTrue(overtaken.get());
        assertTrue(commit.accepted());
        assertEquals("other", commit.previous().metadata().id());
        ObjectEntry stored = index.read(List.of(URL)).get(URL);
        assertEquals(ObjectEntry.State.ABSENT, stored.state());
        assertEquals(Set.of(first.recordKeys().get(0), other.recordKeys().get(0)), Set.copyOf(stored.staleKeys()));
    }

    @Test
    void aCommitOvertakenAtEachWriteGivesUpAsContention() {
        // given a handler each of whose writes is preceded by another handler's commit (observed earlier)
        index.commit(indexed(100, "first", START));
        AtomicInteger others = new AtomicInteger();
        DynamoDbClient racing = overtaking(() -> index.commit(indexed(100 + others.incrementAndGet(), "other", START)));

        // when it commits, then it gives up after its rounds, for SQS to deliver the message again
        ContentionException e = assertThrows(ContentionException.class,
                () -> new DynamoObjectIndex(racing, table, Backoff.standard()).commit(absent(200)));
        assertEquals(ErrorKind.CONTENTION, Failures.classify(e, URL).kind());
        assertEquals(DynamoObjectIndex.MAX_COMMIT_ROUNDS, others.get());
    }

    /** The table, where another handler's commit ({@code other}) lands just before each UpdateItem. */
    private DynamoDbClient overtaking(Runnable other) {
        return new DynamoDbClient() {
            @Override
            public GetItemResponse getItem(GetItemRequest request) {
                return dynamoDb.getItem(request);
            }

            @Override
            public UpdateItemResponse updateItem(UpdateItemRequest request) {
                other.run();
                return dynamoDb.updateItem(request);
            }

            @Override
            public String serviceName() {
                return dynamoDb.serviceName();
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void anEarlierObservationIsRejectedAndAnEqualOneAccepted() {
        index.commit(indexed(200, "later", START));

        assertFalse(index.commit(absent(100)).accepted());
        assertEquals("later", index.read(List.of(URL)).get(URL).metadata().id());
        assertTrue(index.commit(indexed(200, "again", START)).accepted(), "a redelivery of the same observation time");
    }

    @Test
    void staleKeysAreForgottenOnlyByTheCommitThatHoldsThem() {
        index.commit(indexed(100, "first", START));
        index.commit(indexed(200, "second", START + TestFiles.DAY));

        index.clearStale(URL, "commit-100");
        assertEquals(1, index.read(List.of(URL)).get(URL).staleKeys().size());

        index.clearStale(URL, "commit-200");
        assertEquals(List.of(), index.read(List.of(URL)).get(URL).staleKeys());
    }

    @Test
    void aCommitThatReadTheItemBeforeItsClearReadsAgainAndWritesNothingForgottenBack() {
        // given a file indexed, then its removal committed, and a duplicate handler of the removal that
        // reads the item (the file's keys and identity still there) just before the first handler clears it
        ObjectEntry first = indexed(100, "first", START);
        index.commit(first);
        index.commit(absent(200));
        AtomicBoolean cleared = new AtomicBoolean();
        DynamoDbClient racing = overtaking(() -> {
            if (cleared.compareAndSet(false, true)) {
                index.clearStale(URL, "commit-200");
            }
        });

        // when the duplicate handler's commit writes
        ObjectIndex.Commit duplicate = new DynamoObjectIndex(racing, table, Backoff.standard()).commit(absent(300));

        // then it was refused, read the cleared item again and replaced that: nothing forgotten comes back
        assertTrue(cleared.get());
        assertTrue(duplicate.accepted());
        assertFalse(duplicate.previous().unfinished(), "the entry the duplicate replaced: " + duplicate.previous());
        ObjectEntry stored = index.read(List.of(URL)).get(URL);
        assertEquals("commit-300", stored.commitId());
        assertEquals(List.of(), stored.staleKeys());
        assertNull(stored.replaced());
    }

    @Test
    void aRemovalCommittedTwiceKeepsTheFileItReplacedUntilItsHandlerForgetsIt() {
        // given a file indexed, then its removal committed twice (the first handler failed after its commit)
        ObjectEntry first = indexed(100, "first", START);
        index.commit(first);
        index.commit(absent(200));
        index.commit(absent(300));

        // then the item still names the file and its keys
        ObjectEntry stored = index.read(List.of(URL)).get(URL);
        assertEquals(new ObjectEntry.IndexedFile(first.metadata(), 1_000L, 10), stored.replaced());
        assertEquals(first.recordKeys(), stored.staleKeys());

        // when the second handler is done, then both are forgotten, and a later commit holds none
        index.clearStale(URL, "commit-300");
        assertFalse(index.read(List.of(URL)).get(URL).unfinished());
        index.commit(absent(400));
        assertFalse(index.read(List.of(URL)).get(URL).unfinished());
    }

    @Test
    void recordsAreDeletedOnlyWhileTheyHoldTheUrl() {
        Record mine = new RecordFactory().records(metadata("f", START), URL, 1_000L, 10).get(0);
        Record theirs = new RecordFactory().records(metadata("g", START), "s3://bucket/other.log", 1_000L, 10).get(0);
        dynamoDb.putItem(r -> r.tableName(table).item(RecordItems.toItem(mine)));
        dynamoDb.putItem(r -> r.tableName(table).item(RecordItems.toItem(theirs)));

        int removed = index.removeRecords(URL, List.of(RecordKey.of(mine), RecordKey.of(theirs),
                new RecordKey("1:syslog", "nowhere:none")));

        assertEquals(1, removed);
        List<Map<String, AttributeValue>> left = dynamoDb.scan(r -> r.tableName(table)).items();
        assertEquals(List.of("s3://bucket/other.log"), left.stream().map(i -> i.get(RecordItems.URL).s()).toList());
    }

    @Test
    void theItemLivesInItsOwnKeySpaceWithoutAWorkIdKey() {
        index.commit(indexed(100, "first", START));

        Map<String, AttributeValue> item = dynamoDb.getItem(r -> r.tableName(table).key(ObjectItems.key(URL))).item();

        assertEquals(URL, item.get(RecordItems.TIME_INDEX_KEY).s());
        assertEquals(ObjectItems.RANGE_KEY_VALUE, item.get(RecordItems.RANGE_KEY).s());
        assertFalse(item.containsKey(RecordItems.WORK_ID_INDEX_KEY));
        assertTrue(ObjectItems.isObjectItem(item));
    }

    @Test
    void manyEntriesAreReadBackInBatchesOfAHundred() {
        List<String> urls = new java.util.ArrayList<>();
        for (int i = 0; i < 150; i++) {
            String url = "s3://bucket/many/" + i;
            urls.add(url);
            index.commit(new ObjectEntry(url, 1, "c" + i, ObjectEntry.State.ABSENT, null, 0, 0, null, null, null,
                    List.of(), List.of(), null));
        }

        assertEquals(150, index.read(urls).size());
    }
}
