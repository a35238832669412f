package datalake.ingester;

import java.time.Clock;
import java.time.Duration;

/**
 * The moment by which an invocation's work must be done, on an injectable clock, and the invocation's
 * end ({@link Long#MAX_VALUE} when unknown): what runs after the work, in the margin between the two (the
 * check's read-back, then the dead letters and the reports), ends by it. Every SDK call made under a
 * deadline ends by it ({@link CallDeadline}).
 */
public record Deadline(Clock clock, long epochMillis, long endMillis) {
    /** A budget of work in an invocation whose end is not known (a local runner, the tools). */
    public static Deadline after(Clock clock, Duration budget) {
        return new Deadline(clock, clock.millis() + Math.max(0, budget.toMillis()), Long.MAX_VALUE);
    }

    /** A budget of work in an invocation whose calls must all end within {@code end} (at least the budget). */
    public static Deadline after(Clock clock, Duration budget, Duration end) {
        long now = clock.millis();
        long work = now + Math.max(0, budget.toMillis());
        return new Deadline(clock, work, Math.max(work, now + end.toMillis()));
    }

    public long remainingMillis() {
        return Math.max(0, epochMillis - clock.millis());
    }

    public boolean passed() {
        return clock.millis() >= epochMillis;
    }

    /** For the check after the work: the first half of the margin. */
    Deadline checkBy() {
        long half = endMillis == Long.MAX_VALUE ? Long.MAX_VALUE : epochMillis + (endMillis - epochMillis) / 2;
        return new Deadline(clock, half, endMillis);
    }

    /** For the dead letters and the reports: the invocation's end. */
    Deadline settleBy() {
        return new Deadline(clock, endMillis, endMillis);
    }
}
