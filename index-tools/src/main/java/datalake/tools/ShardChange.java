package datalake.tools;

import datalake.dynamodb.RecordItems;
import datalake.dynamodb.ShardMapItem;
import datalake.dynamodb.ShardMapTable;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.MetadataRules;
import datalake.records.ShardMap;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One change of the shard map, checked as {@code scripts/shards.sh set} checks it (docs/SCALE.md, "Write
 * sharding"): a WHAT, 1 to {@link ShardMap#MAX_SHARDS} shards, and a first day no earlier than the day
 * after tomorrow (UTC). The functions keep the map up to a minute, so a change to a day that has begun, or
 * to tomorrow (whose first minute a map read today still serves), would have them write and read that day
 * under different keys; from the day after tomorrow on, no cached map is ever wrong.
 */
final class ShardChange {
    /** How far from its first day a change looks for records already under the keys it replaces. */
    static final int LOOK_AHEAD_DAYS = 31;

    record Result(ShardMap before, ShardMap after, long revision, List<LocalDate> strandedDays) {
        boolean changed() {
            return !before.equals(after);
        }
    }

    private final ShardMapTable table;
    private final DynamoDbClient dynamoDb;
    private final Clock clock;

    ShardChange(DynamoDbClient dynamoDb, String recordsTable, Clock clock) {
        this.table = new ShardMapTable(dynamoDb, recordsTable);
        this.dynamoDb = dynamoDb;
        this.clock = clock;
    }

    ShardMapItem.Stored read() {
        return table.read();
    }

    /** The first day a change may take effect on: the day after tomorrow, UTC. */
    LocalDate earliestDay() {
        return LocalDate.now(clock.withZone(ZoneOffset.UTC)).plusDays(2);
    }

    /**
     * Checks and writes the change; {@link IllegalArgumentException} (nothing written) with the one sentence
     * that says why it is refused.
     */
    Result set(String what, LocalDate from, int shards) {
        if (!MetadataRules.isSlug(what)) {
            throw new IllegalArgumentException("WHAT must be a slug (a-z, 0-9, - and _, at most "
                    + MetadataRules.MAX_SLUG_LENGTH + " characters), as the files' metadata has it.");
        }
        LocalDate earliest = earliestDay();
        if (from.isBefore(earliest)) {
            throw new IllegalArgumentException("--from must be " + earliest + " or later (the day after tomorrow,"
                    + " UTC): the functions keep the map up to a minute, so a day that has begun, or tomorrow, cannot"
                    + " change.");
        }
        ShardMap.Entry entry = new ShardMap.Entry(from.toEpochDay(), shards);
        ShardMapItem.Stored stored = table.read();
        ShardMap after = stored.map().with(what, entry);
        if (after.equals(stored.map())) {
            return new Result(stored.map(), after, stored.revision(), List.of());
        }
        List<LocalDate> stranded = stranded(stored.map(), after, what, from);
        long revision = table.write(after, stored.revision(), clock.millis());
        return new Result(stored.map(), after, revision, stranded);
    }

    /**
     * The days (within {@link #LOOK_AHEAD_DAYS} of the first) whose layout changes and that already hold records
     * under their old keys: files dated ahead, written before the change. Time queries of those days read
     * the new keys only, so they must be moved (scripts/reconcile.sh --fix does).
     */
    private List<LocalDate> stranded(ShardMap before, ShardMap after, String what, LocalDate from) {
        List<LocalDate> days = new ArrayList<>();
        for (long day = from.toEpochDay(); day < from.toEpochDay() + LOOK_AHEAD_DAYS; day++) {
            int old = before.shards(what, day);
            if (old == after.shards(what, day)) {
                continue;
            }
            for (int shard = old == 1 ? TimeIndexKey.UNSHARDED : 0; shard < old; shard++) {
                if (holdsRecords(new TimeIndexKey(day, what, shard))) {
                    days.add(LocalDate.ofEpochDay(day));
                    break;
                }
            }
        }
        return days;
    }

    private boolean holdsRecords(TimeIndexKey key) {
        return dynamoDb.query(r -> r.tableName(table.table()).keyConditionExpression("#h = :h")
                .expressionAttributeNames(Map.of("#h", RecordItems.TIME_INDEX_KEY))
                .expressionAttributeValues(Map.of(":h", AttributeValue.fromS(key.toString())))
                .limit(1)).count() > 0;
    }
}
