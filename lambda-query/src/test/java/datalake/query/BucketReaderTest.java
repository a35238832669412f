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
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
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

    /** A sink of the range keys fed to it. */
    private static final class RangeKeys extends ArrayList<String> implements Consumer<StoredRecord> {
        @Override
        public void accept(StoredRecord record) {
            add(record.rangeKey());
        }
    }

    /** The day's range keys from the reader to its end, each read asking for {@code ahead} items. */
    private static List<String> rest(DayReader day, int ahead) {
        List<String> keys = new ArrayList<>();
        for (StoredRecord record = day.next(ahead, ahead); record != null; record = day.next(ahead, ahead)) {
            keys.add(record.rangeKey());
        }
        return keys;
    }

    @Test
    void withAWhereOneKeyALayoutIsReadOnAShardedDay() {
        put("web-1", "web-2", "db-1");

        List<String> keys = rest(reader.open(DAY, "w", "db-1", null, 10), 10);

        // db-1's shard among 4 is 1; the plain key, the day's layout before the change, may hold files dated ahead
        assertEquals(List.of("db-1:f2"), keys);
        assertEquals(Set.of(DAY + ":w#1", DAY + ":w"), Set.copyOf(table.keysRead()));
        assertEquals(2, table.reads());
    }

    @Test
    void withoutAWhereEveryShardIsReadAndTheRecordsComeInRangeKeyOrder() {
        put("web-1", "web-2", "db-1", "web-3", "db-2", "edge");

        // Queries of one or two items, so that every shard is read again and again
        List<String> keys = rest(reader.open(DAY, "w", null, null, 2), 1);

        assertEquals(List.of("db-1:f2", "db-2:f4", "edge:f5", "web-1:f0", "web-2:f1", "web-3:f3"), keys);
        assertEquals(Set.of(DAY + ":w#0", DAY + ":w#1", DAY + ":w#2", DAY + ":w#3", DAY + ":w"),
                Set.copyOf(table.keysRead()), "every shard, and the plain key of the day's earlier layout");
    }

    @Test
    void aPositionInTheDayHoldsInEveryShard() {
        // given a cursor's range key, as any page of this or an earlier version handed it out
        put("web-1", "web-2", "db-1", "web-3", "db-2", "edge");

        List<String> keys = rest(reader.open(DAY, "w", null, "edge:f5", 2), 1);

        assertEquals(List.of("web-1:f0", "web-2:f1", "web-3:f3"), keys);
    }

    @Test
    void aShardUsedUpIsReadAgainAndNoOtherIs() {
        // given 30 files of one WHERE and one file of three others, each WHERE in a shard of its own
        List<Metadata> files = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            files.add(file(String.format("a%02d", i), "w", "web-1", T0 + i, null));
        }
        files.add(file("b", "w", "web-2", T0, null));
        files.add(file("c", "w", "db-1", T0, null));
        files.add(file("d", "w", "web-3", T0, null));
        table.put(TestFiles.records(files, FOUR));
        DayReader day = reader.open(DAY, "w", null, null, 100);

        // when 31 records are taken, the caller expecting to need 40 items
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 31; i++) {
            keys.add(day.next(40, 40).rangeKey());
        }

        // then one first read of each shard (and of the empty plain key) and one more of the dense one,
        // which grew to what was needed
        assertEquals(31, keys.stream().distinct().count());
        assertEquals(4 + 1 + 1, table.reads());
        assertTrue(day.more());
    }

    @Test
    void aCallerThatSkipsMostOfWhatItReadsHasTheKeysItWillReachReadTogether() {
        // given a sharded day of 8 WHEREs with 20 files each, and a pool whose threads are known by name
        List<Metadata> files = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            for (int i = 0; i < 20; i++) {
                files.add(file(String.format("f%d-%02d", w, i), "w", "host-" + w, T0 + i, null));
            }
        }
        table.put(TestFiles.records(files, FOUR));
        ExecutorService named = Executors.newFixedThreadPool(8, r -> new Thread(r, "shard-reader"));
        List<String> threads = Collections.synchronizedList(new ArrayList<>());
        table.onRead(bucket -> threads.add(Thread.currentThread().getName()));
        try {
            BucketReader shardReader = new BucketReader(table, () -> FOUR, named);

            // when the day is read to its end by a caller that keeps one item in 10 (a narrow window), then by
            // one that keeps all
            List<String> scanned = new ArrayList<>();
            DayReader scan = shardReader.open(DAY, "w", null, null, 100);
            for (StoredRecord record = scan.next(100, 10); record != null; record = scan.next(100, 10)) {
                scanned.add(record.rangeKey());
            }
            long scanAlone = threads.stream().filter(t -> !t.equals("shard-reader")).count();
            threads.clear();
            List<String> paged = new ArrayList<>();
            DayReader page = shardReader.open(DAY, "w", null, null, 100);
            for (StoredRecord record = page.next(100, 100); record != null; record = page.next(100, 100)) {
                paged.add(record.rangeKey());
            }
            long pageAlone = threads.stream().filter(t -> !t.equals("shard-reader")).count();

            // then both came in range-key order, every record once; the scan waited for fewer Queries made
            // one at a time, reading the keys it would reach next with the one used up
            List<String> all = files.stream().map(f -> f.where() + ":" + f.id()).sorted().toList();
            assertEquals(all, scanned);
            assertEquals(all, paged);
            assertTrue(scanAlone < pageAlone, "Queries made alone: scanning " + scanAlone + ", paging " + pageAlone);
        } finally {
            named.shutdownNow();
        }
    }

    @Test
    void aDayBeforeTheFirstEntryIsReadUnderThePlainKey() {
        table.put(TestFiles.records(List.of(file("old", "w", "web-1", T0 - 1, null)), FOUR));

        List<String> keys = rest(reader.open(DAY - 1, "w", null, null, 10), 10);

        assertEquals(List.of("web-1:old"), keys);
        assertEquals(List.of((DAY - 1) + ":w"), table.keysRead());
    }

    @Test
    void aScanReadsEachShardOnItsOwnWithoutMerging() {
        put("web-1", "web-2", "db-1", "web-3", "db-2", "edge");

        List<RangeKeys> perKey = reader.scan(DAY, "w", null, 100, RangeKeys::new);

        // one Query a shard (and one of the empty plain key), each shard's records in a list of their own:
        // web-3; db-1; web-2, db-2; web-1, edge
        assertEquals(4 + 1, table.reads());
        assertEquals(List.of(List.of("web-3:f3"), List.of("db-1:f2"), List.of("db-2:f4", "web-2:f1"),
                List.of("edge:f5", "web-1:f0")), perKey);
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
