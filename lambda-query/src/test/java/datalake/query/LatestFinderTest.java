package datalake.query;

import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.records.ShardMapSource;
import datalake.dynamodb.StoredRecord;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LatestFinderTest {
    /** "Now" is noon of day 20 after T0. */
    private static final long NOW = TestFiles.T0 + 20 * DAY + DAY / 2;
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC);
    private final ExecutorService executor = Executors.newFixedThreadPool(4);
    private final InMemoryRecordsTable records = new InMemoryRecordsTable();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private Optional<String> latestId(LatestTable table, int lookback) {
        return new LatestFinder(new BucketReader(records, ShardMapSource.NONE, executor), table, executor, CLOCK)
                .find("w", "h", lookback).map(StoredRecord::id);
    }

    /** A latest table whose entries are {@code entry}'s answers (LatestFinder never scans it for feeds). */
    private static LatestTable entries(BiFunction<String, String, Optional<StoredRecord>> entry) {
        return new LatestTable() {
            @Override
            public Optional<StoredRecord> latest(String what, String where) {
                return entry.apply(what, where);
            }

            @Override
            public RecordsTable.Slice scan(String what, String after, int limit) {
                throw new UnsupportedOperationException("LatestFinder reads entries, never feeds");
            }
        };
    }

    @Test
    void scanningBackFindsTheNewestStartInTheNewestBucket() {
        records.put(TestFiles.records(file("old", "w", "h", NOW - 3 * DAY, null)));
        records.put(TestFiles.records(file("newer", "w", "h", NOW - 2 * DAY, null)));
        records.put(TestFiles.records(file("other-where", "w", "h2", NOW, null)));

        assertEquals(Optional.of("newer"), latestId(null, 14));
    }

    @Test
    void createTimeBreaksATieOfStarts() {
        records.put(TestFiles.records(file("first", "w", "h", NOW - DAY, null), 5));
        records.put(TestFiles.records(file("second", "w", "h", NOW - DAY, null), 6));

        assertEquals(Optional.of("second"), latestId(null, 14));
    }

    @Test
    void aLaterStartInAnOlderBucketBeatsALongFileReachingToday() {
        // "long" started 10 days ago and still runs into today; "short" started 2 days ago and ended then
        records.put(TestFiles.records(file("long", "w", "h", NOW - 10 * DAY, NOW)));
        records.put(TestFiles.records(file("short", "w", "h", NOW - 2 * DAY, NOW - 2 * DAY + 5)));

        assertEquals(Optional.of("short"), latestId(null, 14));
    }

    @Test
    void theLookbackBoundsTheScan() {
        records.put(TestFiles.records(file("ancient", "w", "h", NOW - 10 * DAY, null)));

        assertEquals(Optional.empty(), latestId(null, 9));
        assertEquals(Optional.of("ancient"), latestId(null, 10));
        assertEquals(Optional.empty(), latestId(null, 0));
    }

    @Test
    void theLatestTableAnswersWhateverItsAgeAndTheScanWithoutAnEntry() {
        StoredRecord inTable = TestFiles.stored(file("from-table", "w", "h", NOW - DAY, null)).get(0);
        records.put(TestFiles.records(file("scanned", "w", "h", NOW - 3 * DAY, null)));
        LatestTable table = entries((what, where) -> what.equals("w") && where.equals("h") ? Optional.of(inTable)
                : Optional.empty());
        LatestTable empty = entries((what, where) -> Optional.empty());
        LatestTable old = entries((what, where) -> Optional.of(TestFiles.stored(file("old", "w", "h", NOW - 30 * DAY, null))
                .get(0)));

        assertEquals(Optional.of("from-table"), latestId(table, 14));
        assertEquals(Optional.of("scanned"), latestId(empty, 14), "a missing entry falls back to the scan");
        assertEquals(Optional.of("old"), latestId(old, 14), "lookback bounds only the scan");
        assertEquals(Optional.of("old"), latestId(old, 0));
    }

    @Test
    void anEntryMoreThanADayAheadIsIgnoredForTheScanWhichIgnoresSuchFilesToo() {
        // given an entry and a file starting 25 hours ahead (tomorrow's bucket), and files 23 hours ahead and past
        StoredRecord future = TestFiles.stored(file("future", "w", "h", NOW + DAY + 3_600_000, null)).get(0);
        records.put(TestFiles.records(file("future", "w", "h", NOW + DAY + 3_600_000, null)));
        records.put(TestFiles.records(file("soon", "w", "h", NOW + DAY - 3_600_000, null)));
        records.put(TestFiles.records(file("past", "w", "h", NOW - DAY, null)));
        LatestTable table = entries((what, where) -> Optional.of(future));

        // then the latest is the file within 24 hours ahead, found in tomorrow's bucket, with or without the table
        assertEquals(Optional.of("soon"), latestId(table, 14));
        assertEquals(Optional.of("soon"), latestId(null, 14));
    }

    @Test
    void nothingAtAllIsEmpty() {
        assertTrue(latestId(null, LatestFinder.MAX_LOOKBACK_DAYS).isEmpty());
    }
}
