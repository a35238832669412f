package datalake.query;

import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;
import static datalake.query.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.dynamodb.StoredRecord;
import datalake.records.Metadata;
import java.util.List;
import org.junit.jupiter.api.Test;

class IntersectionTest {
    private static final long S = T0 + 1000;
    private static final long E = T0 + 5000;

    @Test
    void anInstantCountsWhenItsStartIsInsideTheClosedInterval() {
        assertTrue(Intersection.intersects(first("a", "w", "h", S, null), S, E));
        assertTrue(Intersection.intersects(first("a", "w", "h", E, null), S, E));
        assertFalse(Intersection.intersects(first("a", "w", "h", S - 1, null), S, E));
        assertFalse(Intersection.intersects(first("a", "w", "h", E + 1, null), S, E));
    }

    @Test
    void aFileCountsWhenItsRangeTouchesTheInterval() {
        assertTrue(Intersection.intersects(first("a", "w", "h", S - 500, S), S, E), "ends at start");
        assertTrue(Intersection.intersects(first("a", "w", "h", E, E + 500L), S, E), "starts at end");
        assertTrue(Intersection.intersects(first("a", "w", "h", S - 500, E + 500L), S, E), "covers it");
        assertFalse(Intersection.intersects(first("a", "w", "h", S - 500, S - 1), S, E), "ends before");
        assertFalse(Intersection.intersects(first("a", "w", "h", E + 1, E + 500L), S, E), "starts after");
    }

    @Test
    void aSpanningFileIsEmittedOnlyFromTheFirstBucketBothCover() {
        // given a file over five days and a query from the middle of day 2 to day 6
        Metadata m = file("long", "w", "h", T0 + 10, T0 + 4 * DAY + 10);
        List<StoredRecord> recordsOfFile = TestFiles.stored(m);
        FilesQuery.ByTime query = new FilesQuery.ByTime("w", null, T0 + 2 * DAY + 5, T0 + 6 * DAY);

        // when each of its records is tested
        List<Long> emittedFrom = recordsOfFile.stream().filter(r -> Intersection.emits(r, query))
                .map(StoredRecord::bucket).toList();

        // then only the query's first bucket returns it
        assertEquals(5, recordsOfFile.size());
        assertEquals(List.of(query.firstBucket()), emittedFrom);
    }

    @Test
    void aFileStartingInsideTheQueryIsEmittedFromItsOwnFirstBucket() {
        Metadata m = file("late", "w", "h", T0 + 3 * DAY, T0 + 5 * DAY);
        FilesQuery.ByTime query = new FilesQuery.ByTime("w", null, T0, T0 + 10 * DAY);

        List<Long> emittedFrom = TestFiles.stored(m).stream().filter(r -> Intersection.emits(r, query))
                .map(StoredRecord::bucket).toList();

        assertEquals(List.of(query.firstBucket() + 3), emittedFrom);
    }

    @Test
    void aFileOutsideTheQueryIsNeverEmittedEvenFromASharedBucket() {
        // same day bucket, but it ended before the query starts
        Metadata m = file("early", "w", "h", T0 + 10, T0 + 20L);
        FilesQuery.ByTime query = new FilesQuery.ByTime("w", null, T0 + 100, T0 + 200);

        assertTrue(TestFiles.stored(m).stream().noneMatch(r -> Intersection.emits(r, query)));
    }

    /** The first record of a file, as read back from its item. */
    private static StoredRecord first(String id, String what, String where, long start, Long end) {
        return TestFiles.stored(file(id, what, where, start, end)).get(0);
    }
}
