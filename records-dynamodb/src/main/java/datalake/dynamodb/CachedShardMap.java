package datalake.dynamodb;

import datalake.records.ShardMap;
import datalake.records.ShardMapSource;
import java.time.Clock;
import java.time.Duration;

/**
 * The shard map as each function holds it: read from its source at most once a minute ({@link #MAX_AGE})
 * and kept in between, so that a file costs no call. A map held here can be a change behind, and nothing
 * is lost by it: a change takes effect no earlier than the day after tomorrow (UTC), so only files dated
 * ahead can be written under a layout it replaced, and readers read those layouts too ({@link
 * ShardMap#keys}); scripts/shards.sh writes a new layout as read a minute before it is written, so a
 * reader a change behind reads it already. A read that fails is thrown to the caller (an ingested file
 * fails transiently, a query answers 503), never replaced by a guess.
 */
public final class CachedShardMap implements ShardMapSource {
    public static final Duration MAX_AGE = Duration.ofSeconds(60);

    private final ShardMapSource source;
    private final Clock clock;
    private final Object lock = new Object();
    private volatile Loaded loaded;

    private record Loaded(ShardMap map, long readAt) {
    }

    public CachedShardMap(ShardMapSource source, Clock clock) {
        this.source = source;
        this.clock = clock;
    }

    @Override
    public ShardMap current() {
        Loaded now = loaded;
        if (fresh(now)) {
            return now.map();
        }
        synchronized (lock) {
            now = loaded;
            if (fresh(now)) {
                return now.map();
            }
            // The age counts from before the read: what the map says was true no later than then.
            long readAt = clock.millis();
            Loaded read = new Loaded(source.current(), readAt);
            loaded = read;
            return read.map();
        }
    }

    private boolean fresh(Loaded candidate) {
        if (candidate == null) {
            return false;
        }
        long age = clock.millis() - candidate.readAt();
        return age >= 0 && age < MAX_AGE.toMillis();
    }
}
