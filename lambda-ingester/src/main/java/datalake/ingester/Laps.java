package datalake.ingester;

import java.time.Clock;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The wall time of one batch's phases, each measured from the end of the one before (ms, on the
 * ingester's clock: two reads of it a phase, so timing costs nothing). One per batch, on its thread.
 */
final class Laps {
    private final Clock clock;
    private final long started;
    private long last;
    private final Map<String, Long> laps = new LinkedHashMap<>();

    Laps(Clock clock) {
        this.clock = clock;
        this.started = clock.millis();
        this.last = started;
    }

    /** Ends the phase named (e.g. {@code objects}) now; the next one starts. */
    void lap(String phase) {
        long now = clock.millis();
        laps.put(phase, now - last);
        last = now;
    }

    /** The phases ended so far, in order. */
    Map<String, Long> phases() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(laps));
    }

    /** From the batch's start until now. */
    long total() {
        return clock.millis() - started;
    }
}
