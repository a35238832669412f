package datalake.dynamodb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import datalake.records.ShardMap;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class CachedShardMapTest {
    private static final ShardMap FOUR = ShardMap.EMPTY.with("syslog", new ShardMap.Entry(20_600, 4));
    private static final ShardMap EIGHT = ShardMap.EMPTY.with("syslog", new ShardMap.Entry(20_600, 8));

    /** A clock the test moves. */
    private static final class MovingClock extends Clock {
        private Instant now = Instant.parse("2026-05-25T12:00:00Z");

        void advance(long millis) {
            now = now.plusMillis(millis);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private final MovingClock clock = new MovingClock();
    private final AtomicReference<ShardMap> stored = new AtomicReference<>(FOUR);
    private final CachedShardMap cache = new CachedShardMap(stored::get, clock);

    @Test
    void aChangeIsSeenWithinAMinuteAndNotBefore() {
        assertEquals(FOUR, cache.current());

        stored.set(EIGHT);
        clock.advance(59_999);
        assertEquals(FOUR, cache.current(), "kept for up to a minute");

        clock.advance(1);
        assertEquals(EIGHT, cache.current(), "read again once a minute old");
    }

    @Test
    void theMinuteCountsFromTheLastRead() {
        cache.current();
        clock.advance(60_000);
        cache.current(); // read again here
        stored.set(EIGHT);
        clock.advance(30_000);

        assertEquals(FOUR, cache.current());
    }

    @Test
    void aClockThatWentBackReadsAgain() {
        cache.current();
        stored.set(EIGHT);
        clock.advance(-1);

        assertEquals(EIGHT, cache.current());
    }

    @Test
    void aFailedReadIsThrownAndNotCached() {
        CachedShardMap failing = new CachedShardMap(() -> {
            throw new IllegalStateException("the table did not answer");
        }, clock);

        assertThrows(IllegalStateException.class, failing::current);
        assertThrows(IllegalStateException.class, failing::current, "no guess is cached in its place");
    }
}
