package datalake.ingester;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff with full jitter (AWS architecture blog, "Exponential Backoff And Jitter"):
 * the n-th retry waits a uniformly random time in [0, min(cap, base * 2^(n-1))].
 */
record Backoff(Duration base, Duration cap, Sleeper sleeper, RandomGenerator random) {
    public static final Duration DEFAULT_BASE = Duration.ofMillis(50);
    public static final Duration DEFAULT_CAP = Duration.ofSeconds(2);

    /**
     * 50 ms base, 2 s cap, real sleeps, and SecureRandom jitter: SnapStart restores one snapshot in many
     * sandboxes, which must not share their jitter.
     */
    public static Backoff standard() {
        return new Backoff(DEFAULT_BASE, DEFAULT_CAP, Sleeper.SYSTEM, new SecureRandom());
    }

    public Backoff {
        if (base.isNegative() || base.isZero() || cap.compareTo(base) < 0) {
            throw new IllegalArgumentException("the backoff needs 0 < base <= cap");
        }
    }

    /** The delay before retry number {@code retry} (1 for the first retry). */
    public Duration delay(int retry) {
        int doublings = Math.min(Math.max(retry, 1) - 1, 30);
        long ceiling = Math.min(cap.toMillis(), base.toMillis() << doublings);
        return Duration.ofMillis(random.nextLong(ceiling + 1));
    }
}
