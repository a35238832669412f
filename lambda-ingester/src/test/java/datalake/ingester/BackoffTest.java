package datalake.ingester;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BackoffTest {
    private static final Duration BASE = Duration.ofMillis(50);
    private static final Duration CAP = Duration.ofSeconds(2);

    @Test
    void delaysStayWithinTheDoublingCeilingCappedAtTheCap() {
        Backoff backoff = new Backoff(BASE, CAP, Sleeper.SYSTEM, new Random(7));

        for (int retry = 1; retry <= 40; retry++) {
            long ceiling = Math.min(CAP.toMillis(), BASE.toMillis() << Math.min(retry - 1, 30));
            for (int sample = 0; sample < 50; sample++) {
                long delay = backoff.delay(retry).toMillis();
                assertTrue(delay >= 0 && delay <= ceiling, "retry " + retry + ": " + delay + " > " + ceiling);
            }
        }
    }

    @Test
    void fullJitterSpreadsTheDelaysOverTheWholeRange() {
        Backoff backoff = new Backoff(BASE, CAP, Sleeper.SYSTEM, new Random(7));
        long min = Long.MAX_VALUE;
        long max = 0;

        for (int i = 0; i < 2000; i++) {
            long delay = backoff.delay(10).toMillis();
            min = Math.min(min, delay);
            max = Math.max(max, delay);
        }

        assertTrue(min < 200, "min " + min);
        assertTrue(max > 1800, "max " + max);
    }

    @Test
    void aBaseAboveTheCapIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> new Backoff(Duration.ofSeconds(3), CAP, Sleeper.SYSTEM, new Random()));
        assertThrows(IllegalArgumentException.class,
                () -> new Backoff(Duration.ZERO, CAP, Sleeper.SYSTEM, new Random()));
    }

    @Test
    void theFirstRetryWaitsAtMostTheBase() {
        Backoff backoff = new Backoff(BASE, CAP, Sleeper.SYSTEM, new Random(1));

        for (int i = 0; i < 100; i++) {
            assertTrue(backoff.delay(1).compareTo(BASE) <= 0);
        }
    }
}
