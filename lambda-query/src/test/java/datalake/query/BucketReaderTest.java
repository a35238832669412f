package datalake.query;

import static datalake.query.TestFiles.T0;
import static datalake.query.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.dynamodb.StoredRecord;
import datalake.records.Metadata;
import datalake.records.ShardMap;
import datalake.records.TimeBuckets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BucketReaderTest {
    private static final long DAY = TimeBuckets.bucketOf(T0);
    private static final ShardMap FOUR = ShardMap.EMPTY.with("w", new ShardMap.Entry(DAY, 4));
    private final ExecutorService executor = Executors.newFixedThreadPool(4);
    private final InMemoryRecordsTable table = new InMemoryRecordsTable();
    private final BucketReader reader = new BucketReader(table, () -> FOUR, executor);

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private void put(String... wheres) {
        List<Metadata> files = new ArrayList<>();
        for (int i = 0; i < wheres.length; i++) {
            files.add(file("f" + i, "w", wheres[i], T0 + i, null));
        }
        table.put(TestFiles.records(files, FOUR));
    }

    @Test
    void withAWhereOneKeyIsReadOnAShardedDay() {
        put("web-1", "web-2", "db-1");

        RecordsTable.Slice slice = reader.read(DAY, "w", "db-1", null, 10);

        assertEquals(List.of("f2"), slice.records().stream().map(StoredRecord::id).toList());
        assertEquals(List.of(DAY + ":w#1"), table.keysRead(), "db-1's shard among 4 is 1");
    }

    @Test
    void withoutAWhereEveryShardIsReadAndTheRecordsComeInRangeKeyOrder() {
        put("web-1", "web-2", "db-1", "web-3", "db-2", "edge");

        List<String> keys = new ArrayList<>();
        String after = null;
        do {
            RecordsTable.Slice slice = reader.read(DAY, "w", null, after, 2);
            slice.records().forEach(r -> keys.add(r.rangeKey()));
            after = slice.lastKey();
        } while (after != null);

        assertEquals(List.of("db-1:f2", "db-2:f4", "edge:f5", "web-1:f0", "web-2:f1", "web-3:f3"), keys);
        assertEquals(4, table.keysRead().stream().distinct().count());
        assertTrue(table.keysRead().stream().allMatch(k -> k.startsWith(DAY + ":w#")));
    }

    @Test
    void aDayBeforeTheFirstEntryIsReadUnderThePlainKey() {
        table.put(TestFiles.records(List.of(file("old", "w", "web-1", T0 - 1, null)), FOUR));

        RecordsTable.Slice slice = reader.read(DAY - 1, "w", null, null, 10);

        assertEquals(List.of("old"), slice.records().stream().map(StoredRecord::id).toList());
        assertEquals(List.of((DAY - 1) + ":w"), table.keysRead());
    }

    @Test
    void keysAreComparedAsDynamoDbOrdersThemByTheirUtf8Bytes() {
        // U+E000 sorts before U+1F600 in UTF-8 (and code points), after it in Java's UTF-16 order
        assertTrue(BucketReader.compare("w:\uE000", "w:\uD83D\uDE00") < 0);
        assertTrue("w:\uE000".compareTo("w:\uD83D\uDE00") > 0);
        assertTrue(BucketReader.compare("w:a", "w:ab") < 0);
        assertEquals(0, BucketReader.compare("w:\uD83D\uDE00", "w:\uD83D\uDE00"));
    }
}
