package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.emulators.HttpApiServer;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ActivitySummaryTest {
    private final AtomicReference<HttpApiServer.Counts> api = new AtomicReference<>(new HttpApiServer.Counts(9, 0, 0, 0));
    private final AtomicLong messages = new AtomicLong(9);
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong depth = new AtomicLong();
    private final ActivitySummary summary = new ActivitySummary(api::get, messages::get, failed::get, depth::get,
            Path.of("target/local/datalake.log"));

    @Test
    void oneLineAnIntervalSayingWhatHappenedSinceThePreviousOne() {
        // nothing since it was made (the demo's 9 requests and messages came before)
        assertEquals(Optional.empty(), summary.next(10));

        api.set(new HttpApiServer.Counts(1_259, 40, 2, 7));
        messages.set(3_009);
        failed.set(3);
        depth.set(180);
        String line = summary.next(10).orElseThrow();

        assertEquals("local: last 10 s: API 1,250 requests (40 4xx, 2 5xx, 7 throttled); ingester 3,000 messages"
                + " (3 given back); ingest queue 180; function logs in target/local/datalake.log", line);
        depth.set(0);
        assertTrue(summary.next(10).orElseThrow().contains("API 0 requests"), "the queue emptied: news");
        assertEquals(Optional.empty(), summary.next(10), "then quiet");
        api.set(new HttpApiServer.Counts(1_260, 40, 2, 7));
        messages.set(3_010);
        assertTrue(summary.next(10).orElseThrow().contains("API 1 request (0 4xx, 0 5xx, 0 throttled); ingester 1 message"
                + " (0 given back)"), "one of each, singular");
    }
}
