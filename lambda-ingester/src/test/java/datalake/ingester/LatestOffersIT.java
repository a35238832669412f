package datalake.ingester;

import static datalake.ingester.TestFiles.DAY;
import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import datalake.dynamodb.RecordItems;
import datalake.dynamodb.StoredRecord;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.emulators.DatalakeStack;
import datalake.records.Keys.WhatWhereKey;
import datalake.records.MetadataParser;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * Offers to the latest table that cannot win are read, not written, against dynalite (its
 * BatchGetItem and conditional PutItem) and moto: the calls are counted on the way by an SDK interceptor.
 */
@ExtendWith(EmulatorsExtension.class)
class LatestOffersIT {
    private static final Emulators AWS = Emulators.shared();
    private final List<IngesterHarness> stacks = new ArrayList<>();
    private final List<DynamoDbClient> clients = new ArrayList<>();

    @AfterEach
    void close() {
        stacks.forEach(IngesterHarness::close);
        clients.forEach(DynamoDbClient::close);
    }

    /** Counts the latest table's offers (PutItem) and reads (BatchGetItem) of one client. */
    private static final class LatestCalls implements ExecutionInterceptor {
        private final String table;
        final AtomicInteger puts = new AtomicInteger();
        final AtomicInteger reads = new AtomicInteger();

        LatestCalls(String table) {
            this.table = table;
        }

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if (context.request() instanceof PutItemRequest put && table.equals(put.tableName())) {
                puts.incrementAndGet();
            } else if (context.request() instanceof BatchGetItemRequest get && get.requestItems().containsKey(table)) {
                reads.incrementAndGet();
            }
        }
    }

    private DynamoDbClient counted(LatestCalls calls) {
        DynamoDbClient client = AWS.dynamoDbClients().build(DynamoDbClient.builder(), o -> o.addExecutionInterceptor(calls));
        clients.add(client);
        return client;
    }

    private IngesterHarness stack(String hint) {
        IngesterHarness s = IngesterHarness.create(AWS, hint);
        stacks.add(s);
        return s;
    }

    private static void ingest(IngesterHarness s, IngesterHandler sandbox) {
        assertEquals(Set.of(), s.handle(sandbox, s.receive(1)));
    }

    @Test
    void aSandboxReadsTheEntryInsteadOfOfferingFilesOlderThanIt() {
        // given one sandbox that ingested the newest file of a what:where
        IngesterHarness s = stack("offers");
        LatestCalls calls = new LatestCalls(s.stack.latestTable());
        IngesterHandler sandbox = s.handler(s.config(), counted(calls));
        s.put("new.log", metadata("new", START + 2 * DAY, null));
        ingest(s, sandbox);

        // when two older files come, a batch each
        s.put("old.log", metadata("old", START + DAY, null));
        ingest(s, sandbox);
        s.put("older.log", metadata("older", START, null));
        ingest(s, sandbox);

        // then one offer (the first), one read for each older file, and the newest is the latest
        assertEquals(1, calls.puts.get());
        assertEquals(2, calls.reads.get());
        assertEquals("new", s.latest("syslog", "webserver02").metadata().id());
        assertEquals(3, s.records().size());
    }

    @Test
    void aRemovalByAnotherSandboxIsSeenByTheReadAndTheOlderFileBecomesTheLatest() {
        // given sandbox A ingested the newest file
        IngesterHarness s = stack("stale");
        LatestCalls calls = new LatestCalls(s.stack.latestTable());
        IngesterHandler a = s.handler(s.config(), counted(calls));
        s.put("new.log", metadata("new", START + DAY, null));
        ingest(s, a);

        // and sandbox B handled its deletion, so the latest table has no entry for it any more
        s.delete("new.log");
        ingest(s, s.handler());
        assertNull(s.latest("syslog", "webserver02"));

        // when A ingests an older file, which A's memory says cannot win
        s.put("old.log", metadata("old", START, null));
        ingest(s, a);

        // then A read the entry, found none, offered the file, and it is the latest
        assertEquals(1, calls.reads.get());
        assertEquals(2, calls.puts.get());
        assertEquals("old", s.latest("syslog", "webserver02").metadata().id());
    }

    @Test
    void aRemovedLatestFileIsReplacedByANewerFileOfThePythonDatalakesFirstRecordFormat() {
        // given a feed's older file of ours, a newer record the Python datalake wrote in its first format
        // (no create_time, no size), and our newest file, the latest
        IngesterHarness s = stack("python");
        Map<String, AttributeValue> python = TestFiles.firstFormatItem(metadata("python", START + DAY, null));
        s.backend.dynamoDb().putItem(r -> r.tableName(s.stack.recordsTable()).item(python));
        s.put("old.log", metadata("old", START, null));
        ingest(s, s.handler());
        s.put("new.log", metadata("new", START + 2 * DAY, null));
        ingest(s, s.handler());
        assertEquals("new", s.latest("syslog", "webserver02").metadata().id());

        // when our newest file is deleted
        s.delete("new.log");
        ingest(s, s.handler());

        // then the entry is the Python datalake's record, its item as stored and keyed by what:where, which
        // the query API reads
        Map<String, AttributeValue> entry = latestItem(s);
        assertEquals("python", StoredRecord.fromItem(entry).id());
        Map<String, AttributeValue> expected = new HashMap<>(python);
        expected.put(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS("syslog:webserver02"));
        assertEquals(expected, entry);
    }

    @Test
    void anEntryOfThePythonDatalakesFormatNamingARemovedObjectIsReplacedOrRemoved() {
        // given a feed's older file and its newest one, whose latest entry is in the Python datalake's
        // format (its latest table has no size; its first records no create_time either)
        for (String removed : List.of(RecordItems.SIZE, RecordItems.CREATE_TIME)) {
            IngesterHarness s = stack("python-gone");
            s.put("old.log", metadata("old", START, null));
            ingest(s, s.handler());
            s.put("new.log", metadata("new", START + DAY, null));
            ingest(s, s.handler());
            Map<String, AttributeValue> python = new HashMap<>(latestItem(s));
            python.remove(RecordItems.SIZE);
            python.remove(removed);
            s.backend.dynamoDb().putItem(r -> r.tableName(s.stack.latestTable()).item(python));

            // when the newest file is removed
            s.delete("new.log");
            ingest(s, s.handler());

            // then the entry is the older file's, not the removed one's
            assertEquals("old", StoredRecord.fromItem(latestItem(s)).id(), "without " + removed);

            // and when that one is removed too, after its entry became a Python one, there is none
            Map<String, AttributeValue> older = new HashMap<>(latestItem(s));
            older.remove(removed);
            s.backend.dynamoDb().putItem(r -> r.tableName(s.stack.latestTable()).item(older));
            s.delete("old.log");
            ingest(s, s.handler());
            assertEquals(Map.of(), new HashMap<>(latestItem(s)), "without " + removed);
        }
    }

    @Test
    void aFileOfOursReplacesAnEntryOfThePythonDatalakesFirstFormatWithTheSameStart() {
        // given a latest entry of the Python datalake's first format (no create_time), which the query API
        // orders before a file of the same start that has one
        IngesterHarness s = stack("python-same-start");
        Map<String, AttributeValue> python = new HashMap<>(TestFiles.firstFormatItem(metadata("python", START, null)));
        python.put(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS("syslog:webserver02"));
        s.backend.dynamoDb().putItem(r -> r.tableName(s.stack.latestTable()).item(python));

        // when a file of ours with the same start is ingested
        s.put("ours.log", metadata("ours", START, null));
        ingest(s, s.handler());

        // then it is the latest
        assertEquals("ours", StoredRecord.fromItem(latestItem(s)).id());
    }

    @Test
    void aNewerFileOfOursReplacesAnEntryOfThePythonDatalakeWhoseStartIsText() {
        // given latest entries of the Python datalake whose metadata.start is stored as text, which the
        // query API reads as a time: one older than the files to come, one newer
        IngesterHarness s = stack("python-text-start");
        for (String where : List.of("webserver02", "webserver03")) {
            Map<String, AttributeValue> python = new HashMap<>(TestFiles.firstFormatItem(
                    metadata("python", where.equals("webserver02") ? START : START + 5 * DAY, null).replace("webserver02", where)));
            Map<String, AttributeValue> metadata = new HashMap<>(python.get(RecordItems.METADATA).m());
            metadata.put("start", AttributeValue.fromS(metadata.get("start").n()));
            python.put(RecordItems.METADATA, AttributeValue.fromM(metadata));
            python.put(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS("syslog:" + where));
            s.backend.dynamoDb().putItem(r -> r.tableName(s.stack.latestTable()).item(python));
        }

        // when a file of ours of a later start than the first, and of an earlier one than the second, comes to each
        s.put("ours.log", metadata("ours", START + DAY, null));
        ingest(s, s.handler());
        s.put("other.log", metadata("other", START + DAY, null).replace("webserver02", "webserver03"));
        ingest(s, s.handler());

        // then it is the first's latest, and the second's stays
        assertEquals("ours", StoredRecord.fromItem(latestItem(s)).id());
        assertEquals("python", StoredRecord.fromItem(s.backend.dynamoDb().getItem(r -> r.tableName(s.stack.latestTable())
                .key(Map.of(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS("syslog:webserver03")))
                .consistentRead(true)).item()).id());
    }

    /** The latest table's item of syslog:webserver02, as stored (the query API reads it liberally). */
    private static Map<String, AttributeValue> latestItem(IngesterHarness s) {
        return s.backend.dynamoDb().getItem(r -> r.tableName(s.stack.latestTable())
                .key(Map.of(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS("syslog:webserver02")))
                .consistentRead(true)).item();
    }

    @Test
    void manyEntriesAreReadHundredAKeyCallAndForeignOrMissingOnesAreLeftOut() {
        // given a latest table with 150 entries of ours and one of another writer (no size)
        String table = DatalakeStack.builder(AWS).prefix(DatalakeStack.uniquePrefix("latest")).tablesOnly().build()
                .latestTable();
        LatestCalls calls = new LatestCalls(table);
        DynamoDbClient dynamoDb = counted(calls);
        DynamoLatestTable latest = new DynamoLatestTable(dynamoDb, table);
        RecordFactory factory = new RecordFactory();
        List<WhatWhereKey> keys = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            Record record = factory.records(MetadataParser.parse(metadata("f" + i, START, null)
                    .replace("webserver02", "host" + i)), "s3://b/f" + i, 1L, 1).get(0);
            latest.offer(record);
            keys.add(record.whatWhereKey());
        }
        Map<String, AttributeValue> foreign = new HashMap<>(RecordItems.toLatestItem(factory.records(
                MetadataParser.parse(metadata("py", START, null).replace("webserver02", "python")), "s3://b/py", 1L, 1).get(0)));
        foreign.remove(RecordItems.SIZE);
        dynamoDb.putItem(r -> r.tableName(table).item(foreign));
        keys.add(new WhatWhereKey("syslog", "python"));
        keys.add(new WhatWhereKey("syslog", "nobody"));

        // when all 152 are read
        Map<WhatWhereKey, Record> entries = latest.current(keys);

        // then in two calls, the 150 of ours each under its key, the foreign and the missing one absent
        assertEquals(2, calls.reads.get());
        assertEquals(150, entries.size());
        for (int i = 0; i < 150; i++) {
            assertEquals("f" + i, entries.get(keys.get(i)).metadata().id());
        }
    }
}
