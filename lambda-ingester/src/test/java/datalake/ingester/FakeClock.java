package datalake.ingester;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that moves only when told to (or when a {@link #sleeper()} sleeps on it). */
final class FakeClock extends Clock {
    private volatile long millis;

    FakeClock(Instant start) {
        this.millis = start.toEpochMilli();
    }

    FakeClock() {
        this(Instant.parse("2024-05-14T09:31:05Z"));
    }

    void advance(Duration duration) {
        millis += duration.toMillis();
    }

    /** Sleeping advances this clock at once: backoff is tested without real waits. */
    Sleeper sleeper() {
        return this::advance;
    }

    @Override
    public long millis() {
        return millis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
