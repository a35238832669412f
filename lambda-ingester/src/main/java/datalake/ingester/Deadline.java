package datalake.ingester;

import java.time.Clock;
import java.time.Duration;

/** The moment by which an invocation's work must be done, on an injectable clock. */
public record Deadline(Clock clock, long epochMillis) {
    public static Deadline after(Clock clock, Duration budget) {
        return new Deadline(clock, clock.millis() + Math.max(0, budget.toMillis()));
    }

    public long remainingMillis() {
        return Math.max(0, epochMillis - clock.millis());
    }

    public boolean passed() {
        return clock.millis() >= epochMillis;
    }
}
