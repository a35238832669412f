package datalake.bench.limits;

/**
 * The capacity one key has left: it fills at a rate up to a capacity, on a clock the caller passes in
 * (nanoseconds). Not thread-safe: {@link PartitionModel} guards it.
 */
final class TokenBucket {
    private final double perSecond;
    private final double capacity;
    private double tokens;
    private long updated;

    /** A full bucket. */
    TokenBucket(double perSecond, double capacity, long nowNanos) {
        this.perSecond = perSecond;
        this.capacity = capacity;
        this.tokens = capacity;
        this.updated = nowNanos;
    }

    /**
     * Whether a request of {@code units} may go now: the bucket holds them, or is full when the request
     * is bigger than the whole bucket (which would otherwise wait for ever).
     */
    boolean admits(double units, long nowNanos) {
        return tokens(nowNanos) >= Math.min(units, capacity);
    }

    /** Takes units, into debt if need be: a read's size is known only after it, and a debt delays the next. */
    void take(double units) {
        tokens -= units;
    }

    double tokens(long nowNanos) {
        if (nowNanos > updated) {
            tokens = Math.min(capacity, tokens + perSecond * (nowNanos - updated) / 1e9);
            updated = nowNanos;
        }
        return tokens;
    }
}
