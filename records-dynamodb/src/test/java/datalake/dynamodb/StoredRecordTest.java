package datalake.dynamodb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.records.Metadata;
import datalake.records.Record;
import datalake.records.RecordFactory;
import datalake.records.ShardMap;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class StoredRecordTest {
    private static final Metadata SYSLOG = new Metadata(1426809920345L, 1426895999114L, "/var/log/syslog.1", "job-1",
            "webserver02", "syslog", "6309e115c2914d0f8622973422626954", "a3e75ee4f45f676422e038f2c116d000");

    /** The item the Python datalake's first record format wrote: no create_time, no size. */
    private static Map<String, AttributeValue> firstFormatItem() {
        Map<String, AttributeValue> item = new HashMap<>(RecordItems.toItem(
                new RecordFactory().records(SYSLOG, "s3://lake/x/data", 1, 2).get(0)));
        item.remove(RecordItems.CREATE_TIME);
        item.remove(RecordItems.SIZE);
        return item;
    }

    @Test
    void ourItemReadsBackItsKeysTimesAndUrl() {
        Record record = new RecordFactory().records(SYSLOG, "s3://lake/x/data", 1426896791333L, 7).get(0);
        Map<String, AttributeValue> item = RecordItems.toItem(record);

        StoredRecord stored = StoredRecord.fromItem(item);

        assertEquals(16514, stored.bucket());
        assertEquals("syslog", stored.what());
        assertEquals("webserver02", stored.where());
        assertEquals("6309e115c2914d0f8622973422626954", stored.id());
        assertEquals("webserver02:6309e115c2914d0f8622973422626954", stored.rangeKey());
        assertEquals("s3://lake/x/data", stored.url());
        assertEquals(1426809920345L, stored.start());
        assertEquals(1426895999114L, stored.end());
        assertEquals(1426896791333L, stored.createTime());
        assertEquals("job-1", stored.workId());
        assertSame(item, stored.item());
    }

    @Test
    void aShardedItemReadsBackItsWhatWithoutTheShard() {
        ShardMap map = ShardMap.EMPTY.with("syslog", new ShardMap.Entry(16514, 4));
        Record record = new RecordFactory(30, null, () -> map).records(SYSLOG, "s3://lake/x/data", 1, 7).get(0);
        Map<String, AttributeValue> item = RecordItems.toItem(record);

        StoredRecord stored = StoredRecord.fromItem(item);

        assertEquals("16514:syslog#1", item.get(RecordItems.TIME_INDEX_KEY).s());
        assertEquals(16514, stored.bucket());
        assertEquals("syslog", stored.what());
        assertEquals("syslog:webserver02", stored.whatWhereKey());
        assertEquals(record, RecordItems.fromItem(item), "the record reads back with its shard");
    }

    @Test
    void anItemWithoutCreateTimeSizeOrVersionAndWithAnyHashIsRead() {
        Map<String, AttributeValue> item = firstFormatItem();
        item.remove(RecordItems.VERSION);
        Map<String, AttributeValue> metadata = new HashMap<>(item.get(RecordItems.METADATA).m());
        metadata.put("hash", AttributeValue.fromS("12345"));
        metadata.put("work_id", AttributeValue.fromS("None"));
        metadata.remove("end");
        item.put(RecordItems.METADATA, AttributeValue.fromM(metadata));

        StoredRecord stored = StoredRecord.fromItem(item);

        assertNull(stored.createTime());
        assertNull(stored.end(), "an absent end is an instant");
        assertEquals(stored.start(), stored.endOrStart());
        assertEquals("12345", stored.metadata().get("hash").s(), "passed through as stored");
        assertEquals("None", stored.workId());
    }

    @Test
    void timesMayBeTextAndACreateTimeOfAnotherTypeOrdersFirst() {
        Map<String, AttributeValue> item = firstFormatItem();
        Map<String, AttributeValue> metadata = new HashMap<>(item.get(RecordItems.METADATA).m());
        metadata.put("start", AttributeValue.fromS("2015-03-20T00:05:20.345Z"));
        metadata.put("end", AttributeValue.fromS("1426895999114"));
        item.put(RecordItems.METADATA, AttributeValue.fromM(metadata));
        item.put(RecordItems.CREATE_TIME, AttributeValue.fromS("yesterday"));
        StoredRecord text = StoredRecord.fromItem(item);
        StoredRecord number = StoredRecord.fromItem(RecordItems.toItem(
                new RecordFactory().records(SYSLOG, "s3://lake/x/data", 1, 2).get(0)));

        assertEquals(1426809920345L, text.start());
        assertEquals(1426895999114L, text.end());
        assertNull(text.createTime());
        assertTrue(number.isNewerThan(text), "same start: a numeric create_time beats none");
        assertFalse(text.isNewerThan(number));
    }

    @Test
    void aRangeKeyIsSplitAtItsFirstSeparator() {
        Map<String, AttributeValue> item = firstFormatItem();
        item.put(RecordItems.RANGE_KEY, AttributeValue.fromS("web:an:id"));

        StoredRecord stored = StoredRecord.fromItem(item);

        assertEquals("web", stored.where());
        assertEquals("an:id", stored.id());
    }

    @Test
    void theLatestItemIsTheItemAsStoredKeyedByWhatAndWhere() {
        Map<String, AttributeValue> latest = StoredRecord.fromItem(firstFormatItem()).toLatestItem();

        assertEquals("syslog:webserver02", latest.get(RecordItems.WHAT_WHERE_KEY).s());
        assertFalse(latest.containsKey(RecordItems.SIZE));
        assertEquals(firstFormatItem().get(RecordItems.METADATA), latest.get(RecordItems.METADATA));
    }

    @ParameterizedTest
    @ValueSource(strings = {"time_index_key", "range_key", "url", "metadata", "start", "bad-bucket", "bad-end",
            "bad-range-key"})
    void anItemWithoutKeysTimesOrUrlIsUnreadableWithOneSentence(String broken) {
        Map<String, AttributeValue> item = firstFormatItem();
        Map<String, AttributeValue> metadata = new HashMap<>(item.get(RecordItems.METADATA).m());
        switch (broken) {
            case "start" -> metadata.put("start", AttributeValue.fromS("not a time"));
            case "bad-end" -> metadata.put("end", AttributeValue.fromBool(true));
            case "bad-bucket" -> item.put(RecordItems.TIME_INDEX_KEY, AttributeValue.fromS("x:syslog"));
            case "bad-range-key" -> item.put(RecordItems.RANGE_KEY, AttributeValue.fromS("no-separator"));
            default -> item.remove(broken);
        }
        if (!broken.equals("metadata")) {
            item.put(RecordItems.METADATA, AttributeValue.fromM(metadata));
        }

        UnreadableItemException e = assertThrows(UnreadableItemException.class, () -> StoredRecord.fromItem(item));
        assertTrue(e.getMessage().startsWith("the item is not a datalake record: "), e.getMessage());
        assertTrue(e.getMessage().endsWith("."), e.getMessage());
        assertFalse(e.getMessage().contains("webserver02"), "no value is repeated");
    }
}
