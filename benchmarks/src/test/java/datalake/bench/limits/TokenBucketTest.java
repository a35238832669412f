package datalake.bench.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TokenBucketTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void aFullBucketAdmitsItsCapacityThenRefillsAtItsRate() {
        TokenBucket bucket = new TokenBucket(10, 10, 0);
        for (int i = 0; i < 10; i++) {
            assertTrue(bucket.admits(1, 0), "unit " + i);
            bucket.take(1);
        }
        assertFalse(bucket.admits(1, 0));

        assertEquals(5, bucket.tokens(SECOND / 2), 1e-9);
        assertTrue(bucket.admits(5, SECOND / 2));
        assertFalse(bucket.admits(5.5, SECOND / 2));
    }

    @Test
    void anIdleBucketKeepsNoMoreThanItsCapacity() {
        TokenBucket bucket = new TokenBucket(10, 10, 0);
        bucket.take(10);

        assertEquals(10, bucket.tokens(3600 * SECOND), 1e-9);
    }

    @Test
    void aDebtDelaysTheNextRequestUntilRepaid() {
        TokenBucket bucket = new TokenBucket(10, 10, 0);
        bucket.take(25); // a read bigger than it looked

        assertFalse(bucket.admits(0.5, SECOND));
        assertEquals(-5, bucket.tokens(SECOND), 1e-9);
        assertFalse(bucket.admits(0.5, SECOND + SECOND / 2));
        assertTrue(bucket.admits(0.5, SECOND + SECOND / 2 + SECOND / 20));
    }

    @Test
    void aRequestBiggerThanTheBucketGoesWhenTheBucketIsFull() {
        TokenBucket bucket = new TokenBucket(2, 2, 0);
        bucket.take(1);

        assertFalse(bucket.admits(3, 0));
        assertTrue(bucket.admits(3, SECOND / 2));
    }

    @Test
    void theClockGoingBackRefillsNothing() {
        TokenBucket bucket = new TokenBucket(10, 10, SECOND);
        bucket.take(10);

        assertEquals(0, bucket.tokens(0), 1e-9);
    }
}
