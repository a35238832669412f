package datalake.dynamodb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.records.DatalakeJson;
import datalake.records.Metadata;
import datalake.records.MetadataParser;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
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

    /** The syslog example with a field of each JSON type beyond the nine, as a producer's header holds them. */
    private static final Metadata WITH_EXTRAS = MetadataParser.parse("{\"version\":0,\"start\":1426809920345,"
            + "\"end\":1426895999114,\"path\":\"/var/log/syslog.1\",\"work_id\":null,\"where\":\"webserver02\","
            + "\"what\":\"syslog\",\"id\":\"6309e115c2914d0f8622973422626954\",\"hash\":\"a3e75ee4f45f676422e038f2c116d000\","
            + "\"data-version\":\"3\",\"count\":12,\"score\":0.25,\"ok\":true,\"note\":null,"
            + "\"tags\":[\"a\",1E2,false],\"quality\":{\"by\":{\"who\":\"qa\"},\"levels\":[]}}");

    @Test
    void extraFieldsAreStoredWithTheirNaturalTypesAndReadBack() {
        Record r = new RecordFactory().records(WITH_EXTRAS, "s3://datalake/x", 1426896791333L, 7892341L).get(0);

        Map<String, AttributeValue> item = RecordItems.toItem(r);

        Map<String, AttributeValue> m = item.get("metadata").m();
        assertEquals(AttributeValue.fromS("3"), m.get("data-version"));
        assertEquals(AttributeValue.fromN("12"), m.get("count"));
        assertEquals(AttributeValue.fromN("0.25"), m.get("score"));
        assertEquals(AttributeValue.fromBool(true), m.get("ok"));
        assertEquals(AttributeValue.fromNul(true), m.get("note"));
        assertEquals(AttributeValue.fromL(List.of(AttributeValue.fromS("a"), AttributeValue.fromN("100"),
                AttributeValue.fromBool(false))), m.get("tags"));
        assertEquals(AttributeValue.fromM(Map.of("by", AttributeValue.fromM(Map.of("who", AttributeValue.fromS("qa"))),
                "levels", AttributeValue.fromL(List.of()))), m.get("quality"));
        assertEquals(16, m.size());
        // read back equal, so that reconcile sees no drift between a record and its object's HEAD
        assertEquals(r, RecordItems.fromItem(item));
        assertEquals(r, RecordItems.fromItem(RecordItems.toLatestItem(r)));
    }

    @Test
    void numbersComeBackEqualInTheFormDynamoDbGivesThem() {
        // dynalite and DynamoDB give back 1.5 for 1.50 and 100 for 1E2: the same metadata
        Map<String, AttributeValue> item = new HashMap<>(RecordItems.toItem(
                new RecordFactory().records(WITH_EXTRAS, "s3://b/k", 1, 2).get(0)));
        Map<String, AttributeValue> m = new HashMap<>(item.get("metadata").m());
        m.put("score", AttributeValue.fromN("0.2500"));
        m.put("tags", AttributeValue.fromL(List.of(AttributeValue.fromS("a"), AttributeValue.fromN("1E+2"),
                AttributeValue.fromBool(false))));
        item.put("metadata", AttributeValue.fromM(m));

        Metadata read = RecordItems.fromItem(item).metadata();

        assertEquals(WITH_EXTRAS, read);
        assertTrue(DatalakeJson.toJson(read).contains(",\"score\":0.25,\"tags\":[\"a\",100,false]}"), DatalakeJson.toJson(read));
    }

    @Test
    void thePerObjectItemKeepsTheExtraFieldsToo() {
        Record r = new RecordFactory().records(WITH_EXTRAS, "s3://b/k", 1, 2).get(0);
        ObjectEntry entry = new ObjectEntry("s3://b/k", 5, "commit", ObjectEntry.State.INDEXED, WITH_EXTRAS, 1, 2,
                "etag", null, null, List.of(RecordKey.of(r)), List.of(), null);

        Map<String, AttributeValue> item = ObjectItems.toItem(entry);

        assertEquals(AttributeValue.fromS("3"), item.get("metadata").m().get("data-version"));
        assertEquals(entry, ObjectItems.fromItem(item));
    }

    @Test
    void aRemovalsPerObjectItemKeepsTheFileItReplacedUntilItIsForgotten() {
        // given a file's entry, and the entry of its removal committed over it
        Record r = new RecordFactory().records(WITH_EXTRAS, "s3://b/k", 1, 2).get(0);
        ObjectEntry file = new ObjectEntry("s3://b/k", 5, "put", ObjectEntry.State.INDEXED, WITH_EXTRAS, 1, 2,
                "etag", null, null, List.of(RecordKey.of(r)), List.of(), null);
        ObjectEntry removal = new ObjectEntry("s3://b/k", 6, "delete", ObjectEntry.State.ABSENT, null, 0, 0, null,
                null, null, List.of(), List.of(), 99L).over(file);

        // when it is stored and read back
        Map<String, AttributeValue> item = ObjectItems.toItem(removal);
        ObjectEntry read = ObjectItems.fromItem(item);

        // then it still names the file it removed (metadata, create_time, size) beside the file's keys
        assertEquals(removal, read);
        assertEquals(new ObjectEntry.IndexedFile(WITH_EXTRAS, 1, 2), read.replaced());
        assertEquals(List.of(RecordKey.of(r)), read.staleKeys());
        assertTrue(read.unfinished());
        Map<String, AttributeValue> forgotten = new HashMap<>(item);
        forgotten.remove(ObjectItems.REPLACED);
        forgotten.remove(ObjectItems.STALE_KEYS);
        assertFalse(ObjectItems.fromItem(forgotten).unfinished(), "an item without them (or from before them)");
    }

    @Test
    void extraFieldsOfAnItemThePythonDatalakeWroteAreRead() {
        // boto3 writes a Python dict's values so; sets and binary come back as arrays and base64 text
        Map<String, AttributeValue> item = new HashMap<>(RecordItems.toItem(
                new RecordFactory().records(SYSLOG, "s3://b/k", 1, 2).get(0)));
        Map<String, AttributeValue> m = new HashMap<>(item.get("metadata").m());
        m.put("data-version", AttributeValue.fromS("3"));
        m.put("labels", AttributeValue.fromSs(List.of("x", "y")));
        m.put("blob", AttributeValue.fromB(SdkBytes.fromUtf8String("hi")));
        item.put("metadata", AttributeValue.fromM(m));

        String json = DatalakeJson.toJson(RecordItems.fromItem(item).metadata());

        assertTrue(json.endsWith(",\"blob\":\"aGk=\",\"data-version\":\"3\",\"labels\":[\"x\",\"y\"]}"), json);
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
