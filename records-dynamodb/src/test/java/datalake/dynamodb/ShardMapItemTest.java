package datalake.dynamodb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.records.ShardMap;
import datalake.records.ShardMap.Entry;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class ShardMapItemTest {
    private static final ShardMap MAP = ShardMap.EMPTY.with("syslog", new Entry(20_600, 4))
            .with("syslog", new Entry(20_610, 1)).with("metrics", new Entry(20_605, 2));

    @Test
    void theItemHoldsDaysAsDatesAndReadsBackTheSameMap() {
        Map<String, AttributeValue> item = ShardMapItem.toItem(MAP, 3, 1_000L);

        assertEquals("#shard-map", item.get("time_index_key").s());
        assertEquals("shard-map", item.get("range_key").s());
        assertEquals("1", item.get("version").n());
        assertEquals("3", item.get("revision").n());
        assertFalse(item.containsKey("url"), "reconciliation's Scan filters on url: it never reads the map");
        assertFalse(item.containsKey("work_id_index_key"), "the GSI never holds the map");
        assertEquals(List.of(AttributeValue.fromM(Map.of("from_day", AttributeValue.fromS("2026-05-27"),
                "shards", AttributeValue.fromN("4"))), AttributeValue.fromM(Map.of("from_day",
                AttributeValue.fromS("2026-06-06"), "shards", AttributeValue.fromN("1")))),
                item.get("whats").m().get("syslog").l());
        assertEquals(new ShardMapItem.Stored(MAP, 3, 1_000L), ShardMapItem.fromItem(item));
        assertTrue(ShardMapItem.isShardMapItem(item));
        assertFalse(ObjectItems.isObjectItem(item));
    }

    @Test
    void theLayoutsAChangeReplacedAreKeptAndAnItemWrittenBeforeThemHasNone() {
        ShardMap replaced = MAP.with("syslog", new Entry(20_600, 8));
        Map<String, AttributeValue> item = ShardMapItem.toItem(replaced, 4, 2_000L);

        assertEquals(List.of(AttributeValue.fromM(Map.of("from_day", AttributeValue.fromS("2026-05-27"),
                "shards", AttributeValue.fromN("4")))), item.get("earlier").m().get("syslog").l());
        assertEquals(new ShardMapItem.Stored(replaced, 4, 2_000L), ShardMapItem.fromItem(item));

        Map<String, AttributeValue> older = new HashMap<>(ShardMapItem.toItem(MAP, 3, 1_000L));
        older.remove("earlier");
        assertEquals(new ShardMapItem.Stored(MAP, 3, 1_000L), ShardMapItem.fromItem(older));
    }

    @Test
    void anItemThisCodeCannotReadIsAnErrorThatSaysSoNeverAnEmptyMap() {
        Map<String, AttributeValue> newer = new HashMap<>(ShardMapItem.toItem(MAP, 3, 1_000L));
        newer.put("version", AttributeValue.fromN("2"));
        assertEquals("the shard map item is of format 2, and this code reads 1: deploy the code that wrote it.",
                assertThrows(IllegalStateException.class, () -> ShardMapItem.fromItem(newer)).getMessage());

        Map<String, AttributeValue> badDay = new HashMap<>(ShardMapItem.toItem(MAP, 3, 1_000L));
        badDay.put("whats", AttributeValue.fromM(Map.of("syslog", AttributeValue.fromL(List.of(AttributeValue.fromM(
                Map.of("from_day", AttributeValue.fromS("tomorrow"), "shards", AttributeValue.fromN("4"))))))));
        assertThrows(IllegalStateException.class, () -> ShardMapItem.fromItem(badDay));

        Map<String, AttributeValue> tooMany = new HashMap<>(ShardMapItem.toItem(MAP, 3, 1_000L));
        tooMany.put("whats", AttributeValue.fromM(Map.of("syslog", AttributeValue.fromL(List.of(AttributeValue.fromM(
                Map.of("from_day", AttributeValue.fromS("2026-05-27"), "shards", AttributeValue.fromN("99"))))))));
        assertTrue(assertThrows(IllegalStateException.class, () -> ShardMapItem.fromItem(tooMany)).getMessage()
                .contains("a WHAT has 1 to 16 shards, not 99."));

        Map<String, AttributeValue> noWhats = new HashMap<>(ShardMapItem.toItem(MAP, 3, 1_000L));
        noWhats.remove("whats");
        assertThrows(IllegalStateException.class, () -> ShardMapItem.fromItem(noWhats));
    }
}
