package datalake.ingester;

import static datalake.ingester.TestFiles.DAY;
import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;

import datalake.dynamodb.RecordKey;
import datalake.dynamodb.ShardMapTable;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.records.Record;
import datalake.records.ShardMap;
import datalake.records.TimeBuckets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The ingester on a WHAT sharded from a given day on (the records table's shard map), against moto and
 * dynalite: records of the days from the map's first entry on go under {@code <day>:<what>#<s>}, the
 * earlier days' under the plain key; an overwrite and a removal delete the keys the per-object item lists,
 * and the latest entry of a removed file is recomputed from the sharded days.
 */
@ExtendWith(EmulatorsExtension.class)
class ShardedIngestIT {
    private static final Emulators AWS = Emulators.shared();
    private static final long HOUR = 3_600_000L;
    private static final long DAY0 = TimeBuckets.bucketOf(START);
    private final IngesterHarness s = IngesterHarness.create(AWS, "sharded-ingest");

    @AfterEach
    void close() {
        s.close();
    }

    private void ingest(int count) {
        assertEquals(Set.of(), s.handle(s.receive(count)));
    }

    private List<String> keysOf(String key) {
        return s.recordsOf(key).stream().map(r -> r.timeIndexKey().toString()).sorted().toList();
    }

    @Test
    void aShardedWhatIsWrittenUnderItsShardsAndOverwritesAndRemovalsFollowIt() {
        // given syslog sharded into 4 from the day after DAY0 (webserver02's shard among 4 is 1)
        ShardMapTable map = new ShardMapTable(s.backend.dynamoDb(), s.stack.recordsTable());
        map.write(ShardMap.EMPTY.with("syslog", new ShardMap.Entry(DAY0 + 1, 4)), 0, 0);

        // when a file of the plain day, one of the first sharded day and one over two sharded days come
        s.put("plain.log", metadata("plain", START, null));
        s.put("old.log", metadata("old", START + DAY + HOUR, null));
        s.put("new.log", metadata("new", START + 2 * DAY, START + 3 * DAY));
        ingest(3);

        // then each record is under its day's key, and the per-object items list those keys
        assertEquals(List.of(DAY0 + ":syslog"), keysOf("plain.log"));
        assertEquals(List.of((DAY0 + 1) + ":syslog#1"), keysOf("old.log"));
        assertEquals(List.of((DAY0 + 2) + ":syslog#1", (DAY0 + 3) + ":syslog#1"), keysOf("new.log"));
        assertEquals(s.recordsOf("new.log").stream().map(RecordKey::of).toList(),
                s.objectEntry("new.log").recordKeys());
        assertEquals("new", s.latest("syslog", "webserver02").metadata().id());
        assertEquals("nullnew:syslog", s.recordsOf("new.log").get(0).workIdIndexKey().toString(), "the GSI key");

        // when old.log is overwritten by another file (another id), and new.log is deleted
        s.put("old.log", metadata("old2", START + DAY + 2 * HOUR, null));
        ingest(1);
        s.delete("new.log");
        ingest(1);

        // then only the current files' records are left, and the latest entry is the newest of the sharded days
        assertEquals(List.of("old2", "plain"), s.records().stream().map(r -> r.metadata().id()).sorted().toList());
        assertEquals(List.of((DAY0 + 1) + ":syslog#1"), keysOf("old.log"));
        assertEquals(List.of(), keysOf("new.log"));
        Record latest = s.latest("syslog", "webserver02");
        assertEquals("old2", latest.metadata().id(), "found on the sharded day, not the older plain one");
        assertEquals((DAY0 + 1) + ":syslog#1", latest.timeIndexKey().toString());
    }
}
