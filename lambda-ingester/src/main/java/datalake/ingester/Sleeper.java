package datalake.ingester;

import java.time.Duration;

/** Waits; tests pass one that advances a fake clock instead of sleeping. */
@FunctionalInterface
public interface Sleeper {
    Sleeper SYSTEM = duration -> Thread.sleep(duration);

    void sleep(Duration duration) throws InterruptedException;
}
