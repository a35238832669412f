package datalake.dynamodb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import datalake.records.Metadata;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.util.HashMap;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class RecordItemsTest {
    private static final Metadata SYSLOG = new Metadata(1426809920345L, 1426895999114L, "/var/log/syslog.1", null,
            "webserver02", "syslog", "6309e115c2914d0f8622973422626954", "a3e75ee4f45f676422e038f2c116d000");

    @Test
    void theItemCarriesTheKeysAndTheRecordFormat() {
        Record r = new RecordFactory().records(SYSLOG, "s3://datalake/x y", 1426896791333L, 7892341L).get(0);

        Map<String, AttributeValue> item = RecordItems.toItem(r);

        assertEquals("16514:syslog", item.get("time_index_key").s());
        assertEquals("webserver02:6309e115c2914d0f8622973422626954", item.get("range_key").s());
        assertEquals("null6309e115c2914d0f8622973422626954:syslog", item.get("work_id_index_key").s());
        assertEquals("0", item.get("version").n());
        assertEquals("s3://datalake/x y", item.get("url").s());
        assertEquals("1426896791333", item.get("create_time").n());
        assertEquals("7892341", item.get("size").n());
        assertEquals(Boolean.TRUE, item.get("metadata").m().get("work_id").nul());
        assertEquals("1426895999114", item.get("metadata").m().get("end").n());
        assertFalse(item.containsKey("expires_at"));
        assertEquals(r, RecordItems.fromItem(item));
    }

    @Test
    void theLatestItemAddsTheWhatWhereKey() {
        Record r = new RecordFactory(30, 2).records(SYSLOG.withTimes(5, null), "s3://b/k", 1, 2).get(0);

        Map<String, AttributeValue> item = RecordItems.toLatestItem(r);

        assertEquals("syslog:webserver02", item.get("what_where_key").s());
        assertEquals(Boolean.TRUE, item.get("metadata").m().get("end").nul());
        assertEquals(r, RecordItems.fromItem(item));
    }

    @Test
    void anItemThatIsNotARecordIsRejectedWithOneSentence() {
        Map<String, AttributeValue> item = new HashMap<>(RecordItems.toItem(
                new RecordFactory().records(SYSLOG, "s3://b/k", 1, 2).get(0)));
        item.remove("metadata");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RecordItems.fromItem(item));
        assertEquals("the item is not a datalake record (version 0).", e.getMessage());
    }

    @Property
    void itemsRoundTrip(@ForAll @LongRange(min = -4_000_000_000_000L, max = 4_000_000_000_000L) long start,
                        @ForAll @LongRange(min = 0, max = 2_000_000_000L) long length,
                        @ForAll boolean instant, @ForAll boolean withWorkId, @ForAll long createTime) {
        Metadata m = new Metadata(start, instant ? null : start + length, "/p", withWorkId ? "job" : null,
                "w", "x", "id1", "a3e75ee4f45f676422e038f2c116d000");
        for (Record r : new RecordFactory(30, 9).records(m, "s3://b/é", createTime, 3)) {
            assertEquals(r, RecordItems.fromItem(RecordItems.toItem(r)));
        }
    }
}
