package datalake.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.records.Keys.TimeIndexKey;
import datalake.records.ShardMap.Entry;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ShardMapTest {
    private static final long D = 20_600; // 2026-05-27

    /**
     * The key format: these vectors are Python's {@code int.from_bytes(hashlib.blake2b(where.encode(),
     * digest_size=8).digest(), "big") % shards}. A change here moves records another writer put elsewhere.
     */
    @ParameterizedTest
    @CsvSource({
        "'', 4, 0", "'', 16, 4",
        "a, 2, 1", "a, 3, 2", "a, 16, 15",
        "webserver01, 4, 3", "webserver01, 8, 7",
        "webserver02, 4, 1", "webserver02, 16, 5",
        "db-1, 3, 2", "db-1, 4, 1",
        "host_9, 16, 0"})
    void theShardOfAWhereIsBlake2bOfItsUtf8ModuloTheShards(String where, int shards, int expected) {
        assertEquals(expected, ShardMap.shardOf(where, shards));
    }

    @Test
    void everyShardGetsWheresOfItsOwn() {
        int[] counts = new int[4];
        for (int i = 0; i < 4000; i++) {
            counts[ShardMap.shardOf("host-" + i, 4)]++;
        }
        for (int count : counts) {
            assertTrue(count > 900 && count < 1100, "an even spread over 4 shards: " + Arrays.toString(counts));
        }
    }

    @Test
    void aWhatIsPlainBeforeItsFirstEntryAndShardedFromIt() {
        ShardMap map = ShardMap.of(Map.of("syslog", List.of(new Entry(D, 4), new Entry(D + 10, 1))));

        assertEquals(1, map.shards("syslog", D - 1));
        assertEquals(4, map.shards("syslog", D));
        assertEquals(4, map.shards("syslog", D + 9));
        assertEquals(1, map.shards("syslog", D + 10));
        assertEquals(1, map.shards("other", D));
        assertEquals(new TimeIndexKey(D - 1, "syslog"), map.timeIndexKey(D - 1, "syslog", "webserver02"));
        assertEquals("20600:syslog#1", map.timeIndexKey(D, "syslog", "webserver02").toString());
        assertEquals("20610:syslog", map.timeIndexKey(D + 10, "syslog", "webserver02").toString());
    }

    @Test
    void aChangeReplacesTheEntriesFromItsDayOnAndLeavesOutWhatChangesNothing() {
        ShardMap map = ShardMap.EMPTY.with("syslog", new Entry(D, 4));
        assertEquals(List.of(new Entry(D, 4)), map.entries("syslog"));

        ShardMap later = map.with("syslog", new Entry(D + 5, 8)).with("syslog", new Entry(D + 3, 2));
        assertEquals(List.of(new Entry(D, 4), new Entry(D + 3, 2)), later.entries("syslog"));
        assertEquals(List.of(new Entry(D + 5, 8)), later.earlier("syslog"), "the entry replaced");

        assertEquals(map, map.with("syslog", new Entry(D + 7, 4)), "4 shards from a later day is no change");
        assertEquals(map, map.with("syslog", new Entry(D, 4)), "nor is the same entry again");
        ShardMap unsharded = map.with("syslog", new Entry(D, 1));
        assertEquals(List.of(), unsharded.entries("syslog"), "1 shard from the first day: written plain");
        assertEquals(List.of(new Entry(D, 4)), unsharded.earlier("syslog"), "and the 4 shards still read");
        assertEquals(ShardMap.EMPTY, ShardMap.EMPTY.with("syslog", new Entry(D, 1)));
    }

    @Test
    void aDayIsReadUnderEveryLayoutItMayHaveHadTheCurrentOneFirst() {
        // given syslog sharded into 4 from D, then into 8 from D + 5 (a change made after files of D + 9 were
        // written into 4 shards), then into 2 from D + 3, replacing the 8
        ShardMap map = ShardMap.EMPTY.with("syslog", new Entry(D, 4)).with("syslog", new Entry(D + 5, 8))
                .with("syslog", new Entry(D + 3, 2));

        // then a day before the first entry is plain; later days were plain before it, and may hold any
        // layout a change gave them since
        assertEquals(List.of(1), map.layouts("syslog", D - 1));
        assertEquals(List.of(4, 1), map.layouts("syslog", D));
        assertEquals(List.of(2, 1, 4), map.layouts("syslog", D + 4));
        assertEquals(List.of(2, 1, 4, 8), map.layouts("syslog", D + 9));
        assertEquals(List.of(1), map.layouts("other", D + 9));

        // with a WHERE, one key a layout; without, every shard of each, the current layout's first
        assertEquals(List.of("20604:syslog#1", "20604:syslog"), // its shard among 2 and among 4 is 1
                map.keys(D + 4, "syslog", "webserver02").stream().map(Object::toString).toList());
        assertEquals(List.of("20600:syslog#0", "20600:syslog#1", "20600:syslog#2", "20600:syslog#3", "20600:syslog"),
                map.keys(D, "syslog", null).stream().map(Object::toString).toList());
        assertEquals(List.of("20601:syslog#1", "20601:syslog", "20600:syslog#1", "20600:syslog"),
                map.timeIndexKeys("syslog", "webserver02", D + 1, D).stream().map(Object::toString).toList());
    }

    @Test
    void aLayoutAnnouncedIsReadBeforeItIsWritten() {
        ShardMap map = ShardMap.EMPTY.with("syslog", new Entry(D, 4));

        ShardMap announced = map.withEarlier("syslog", new Entry(D + 5, 8));

        assertEquals(4, announced.shards("syslog", D + 5), "still written into 4");
        assertEquals(List.of(4, 1, 8), announced.layouts("syslog", D + 5));
        assertEquals(List.of(4, 1), announced.layouts("syslog", D + 4));
        assertEquals(map, map.withEarlier("syslog", new Entry(D + 5, 4)), "a layout read already changes nothing");
        assertEquals(map, map.withEarlier("syslog", new Entry(D + 5, 1)));
    }

    @Test
    void badMapsAreRefusedWithTheirReason() {
        assertEquals("a WHAT has 1 to 16 shards, not 17.",
                assertThrows(IllegalArgumentException.class, () -> new Entry(D, 17)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Entry(D, 0));
        assertThrows(IllegalArgumentException.class, () -> ShardMap.of(Map.of("sys#log", List.of(new Entry(D, 2)))));
        assertThrows(IllegalArgumentException.class, () -> ShardMap.of(Map.of("syslog", List.of())));
        assertEquals("the shard entries of syslog are not in day order.", assertThrows(IllegalArgumentException.class,
                () -> ShardMap.of(Map.of("syslog", List.of(new Entry(D, 2), new Entry(D, 4))))).getMessage());
    }

    @Test
    void anEntryNamesItsDayInUtc() {
        assertEquals("2026-05-27", new Entry(D, 2).fromDate());
    }
}
