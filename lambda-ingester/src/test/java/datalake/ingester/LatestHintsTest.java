package datalake.ingester;

import static datalake.ingester.TestFiles.DAY;
import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.records.MetadataParser;
import datalake.records.Record;
import datalake.records.RecordFactory;
import org.junit.jupiter.api.Test;

class LatestHintsTest {
    private final LatestHints hints = new LatestHints();

    private static Record file(String where, long start, long createTime) {
        return new RecordFactory().records(MetadataParser.parse(metadata("f", start, null).replace("webserver02", where)),
                "s3://b/" + where + start, createTime, 1).get(0);
    }

    @Test
    void withoutAHintEveryFileMayWin() {
        assertTrue(hints.mayWin(file("w", START, 1)));
    }

    @Test
    void aRefusalIsALowerBoundAndAnAcceptanceIsTheEntry() {
        hints.offered(file("w", START + DAY, 1), false);
        assertFalse(hints.mayWin(file("w", START + DAY, 1)), "as new as the entry's lower bound");
        assertTrue(hints.mayWin(file("w", START + DAY, 2)), "a later create_time at the same start");

        hints.offered(file("w", START, 1), false); // an older refusal teaches nothing new
        assertFalse(hints.mayWin(file("w", START + DAY / 2, 1)));

        hints.offered(file("w", START + 2 * DAY, 1), true);
        assertFalse(hints.mayWin(file("w", START + DAY, 5)));
        assertTrue(hints.mayWin(file("w", START + 3 * DAY, 1)));
    }

    @Test
    void aReadReplacesTheHintEvenWithAnOlderEntryAndNoEntryForgetsIt() {
        hints.offered(file("w", START + 2 * DAY, 1), true);
        Record older = file("w", START, 1);

        hints.is(older.whatWhereKey(), older);
        assertTrue(hints.mayWin(file("w", START + DAY, 1)), "the entry moved back: a file between wins");

        hints.is(older.whatWhereKey(), null);
        assertTrue(hints.mayWin(file("w", START - DAY, 1)));
    }

    @Test
    void theLeastRecentlyUsedWhatWheresAreForgottenBeyondTheCapacity() {
        for (int i = 0; i <= LatestHints.CAPACITY; i++) {
            hints.offered(file("host" + i, START, 1), true);
        }

        assertEquals(LatestHints.CAPACITY, hints.size());
        assertTrue(hints.mayWin(file("host0", START, 1)), "the first one was forgotten");
        assertFalse(hints.mayWin(file("host" + LatestHints.CAPACITY, START, 1)));
    }
}
