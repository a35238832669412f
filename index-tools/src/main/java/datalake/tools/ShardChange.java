package datalake.tools;

import datalake.dynamodb.CachedShardMap;
import datalake.dynamodb.ShardMapItem;
import datalake.dynamodb.ShardMapTable;
import datalake.ingester.Sleeper;
import datalake.records.MetadataRules;
import datalake.records.ShardMap;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * One change of the shard map, checked as {@code scripts/shards.sh set} checks it (docs/SCALE.md, "Write
 * sharding"): a WHAT, 1 to {@link ShardMap#MAX_SHARDS} shards, and a first day no earlier than the day
 * after tomorrow (UTC), so that only files dated ahead are ever under a layout other than the one a map
 * gives: a day that has begun, or tomorrow (whose first minute a map read today still serves), is written
 * under one layout whatever map a function holds.
 *
 * <p>Functions keep the map up to a minute ({@link CachedShardMap#MAX_AGE}), so during a change some hold
 * the old one. Readers go first: the new layout is written as an earlier one (read, never written) and
 * becomes the current one only once every cached map reads it; the layouts it replaces stay read for good
 * ({@link ShardMap#earlier}). So no reader ever misses a file a writer keyed by a map it does not have.
 * A change stopped between its two writes (Ctrl-C) leaves the layout read; run again, it waits what is
 * left of the minute since the map was written, which may have been that announcement.
 *
 * <p>The clock is AWS's ({@link AwsClock}), not the workstation's: the days are the functions', and the
 * map's time of writing is compared with a later run's, maybe another workstation's.
 */
final class ShardChange {
    record Result(ShardMap before, ShardMap after, long revision) {
        boolean changed() {
            return !before.equals(after);
        }
    }

    /** How long the new layout is read before it is written: every cached map is then at least as new. */
    static final Duration READERS_FIRST = CachedShardMap.MAX_AGE.plusSeconds(1);

    private final ShardMapTable table;
    private final Clock clock;
    private final Sleeper sleeper;
    /** Between a change's announcement and its last write: the sentence saying what the map is left as. */
    private volatile String unfinished;

    ShardChange(DynamoDbClient dynamoDb, String recordsTable, Clock clock, Sleeper sleeper) {
        this.table = new ShardMapTable(dynamoDb, recordsTable);
        this.clock = clock;
        this.sleeper = sleeper;
    }

    ShardMapItem.Stored read() {
        return table.read();
    }

    /**
     * How long after its check a change may be written: the minute readers go first, and a minute for the
     * calls. A change checked at 23:59 is written after midnight, when its day must still be the day after
     * tomorrow.
     */
    static final Duration WRITTEN_WITHIN = READERS_FIRST.plusMinutes(1);

    /** The first day a change may take effect on: the day after tomorrow, UTC, when it is written. */
    LocalDate earliestDay() {
        return earliestDay(clock);
    }

    static LocalDate earliestDay(Clock clock) {
        return LocalDate.now(Clock.offset(clock, WRITTEN_WITHIN).withZone(ZoneOffset.UTC)).plusDays(2);
    }

    /**
     * Checks and writes the change, readers first (a minute, or what is left of it after an announcement
     * already written); {@link IllegalArgumentException} (nothing written) with the one sentence that says
     * why it is refused.
     */
    Result set(String what, LocalDate from, int shards) {
        if (!MetadataRules.isSlug(what)) {
            throw new IllegalArgumentException("WHAT must be a slug (a-z, 0-9, - and _, at most "
                    + MetadataRules.MAX_SLUG_LENGTH + " characters), as the files' metadata has it.");
        }
        LocalDate earliest = earliestDay();
        if (from.isBefore(earliest)) {
            throw new IllegalArgumentException("--from must be " + earliest + " or later (the day after tomorrow,"
                    + " UTC by AWS's clock, when the change is written, two minutes from now at most): the functions"
                    + " keep the map up to a minute, so a day that has begun, or tomorrow, cannot change.");
        }
        ShardMap.Entry entry = new ShardMap.Entry(from.toEpochDay(), shards);
        ShardMapItem.Stored stored = table.read();
        ShardMap after = stored.map().with(what, entry);
        if (after.equals(stored.map())) {
            return new Result(stored.map(), after, stored.revision());
        }
        long revision = stored.revision();
        ShardMap announced = stored.map().withEarlier(what, entry);
        String left = "stopped before the new layout was written: the map reads " + what + " into " + shards
                + " shard(s) from " + from + " and still writes the old layout; run the same command again to"
                + " finish the change.";
        if (!announced.equals(stored.map())) {
            revision = table.write(announced, revision, clock.millis());
            unfinished = left;
            readersFirst(READERS_FIRST);
        } else if (!readByCurrentEntries(stored.map(), what, entry)) {
            // Read already, as an earlier layout: announced by a change stopped before its last write, or
            // one replaced long ago. Every cached map reads it once the map's last write is a minute old
            // (two readings of AWS's clock, each of whole seconds: give them their uncertainty).
            unfinished = left;
            long millis = stored.updatedAtMillis() + READERS_FIRST.plus(AwsClock.UNCERTAINTY).toMillis()
                    - clock.millis();
            if (millis > 0) {
                readersFirst(Duration.ofSeconds((millis + 999) / 1000));
            }
        }
        revision = table.write(after, revision, clock.millis());
        unfinished = null;
        return new Result(stored.map(), after, revision);
    }

    private void readersFirst(Duration wait) {
        try {
            sleeper.sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(unfinished, e);
        }
    }

    /**
     * Whether a map's current entries alone (a plain day, or a layout written from that day or earlier)
     * make every reader read the layout: it was announced before they were written.
     */
    private static boolean readByCurrentEntries(ShardMap map, String what, ShardMap.Entry layout) {
        ShardMap current = ShardMap.of(map.whats());
        return current.withEarlier(what, layout).equals(current);
    }

    /**
     * What the map is left as when a change stops now (the operator's Ctrl-C): one sentence, while the
     * change has announced its layout and not written it yet.
     */
    Optional<String> unfinished() {
        return Optional.ofNullable(unfinished);
    }
}
