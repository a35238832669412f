package datalake.records;

import static datalake.records.TimeBuckets.DAY_MS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TimeBucketsTest {

    @Test
    void bucketIsTheFlooredDay() {
        assertEquals(0, TimeBuckets.bucketOf(0));
        assertEquals(0, TimeBuckets.bucketOf(DAY_MS - 1));
        assertEquals(1, TimeBuckets.bucketOf(DAY_MS));
        assertEquals(16514, TimeBuckets.bucketOf(1426809920345L));
    }

    @Test
    void timesBefore1970FloorTowardsTheEarlierDay() {
        assertEquals(-1, TimeBuckets.bucketOf(-1));
        assertEquals(-1, TimeBuckets.bucketOf(-DAY_MS));
        assertEquals(-2, TimeBuckets.bucketOf(-DAY_MS - 1));
        assertArrayEquals(new long[] {-1, 0}, TimeBuckets.span(-1, 0, 30));
    }

    @Test
    void aFileWithinOneDayHasOneBucket() {
        assertArrayEquals(new long[] {16514}, TimeBuckets.span(Fixtures.syslog(), 30));
    }

    @Test
    void exactMidnightStartBelongsToThatDay() {
        assertArrayEquals(new long[] {5}, TimeBuckets.span(5 * DAY_MS, 5 * DAY_MS + 1000, 30));
    }

    @Test
    void aFileEndingExactlyAtTheNextMidnightTouchesTheNextDay() {
        assertArrayEquals(new long[] {5, 6}, TimeBuckets.span(5 * DAY_MS, 6 * DAY_MS, 30));
        assertArrayEquals(new long[] {5}, TimeBuckets.span(5 * DAY_MS, 6 * DAY_MS - 1, 30));
    }

    @Test
    void anInstantHasOneBucket() {
        assertArrayEquals(new long[] {7}, TimeBuckets.span(7 * DAY_MS + 5, 7 * DAY_MS + 5, 30));
    }

    @Test
    void thirtyBucketsAreAcceptedAndThirtyOneRejected() {
        long start = 100 * DAY_MS + 3600_000;

        assertEquals(30, TimeBuckets.span(start, start + 29 * DAY_MS, 30).length);
        UnsupportedTimeRangeException e = assertThrows(UnsupportedTimeRangeException.class,
                () -> TimeBuckets.span(start, start + 30 * DAY_MS, 30));
        assertEquals(31, e.buckets());
        assertEquals(30, e.maxBuckets());
    }

    @Test
    void theMaximumSpanIsConfigurable() {
        assertEquals(31, TimeBuckets.span(0, 30 * DAY_MS, 31).length);
        assertThrows(UnsupportedTimeRangeException.class, () -> TimeBuckets.span(0, DAY_MS, 1));
    }

    @Test
    void startOfIsTheInverseOfBucketOf() {
        assertEquals(-DAY_MS, TimeBuckets.startOf(-1));
        assertEquals(16514 * DAY_MS, TimeBuckets.startOf(16514));
    }
}
