package datalake.records;

import static datalake.records.TimeBuckets.DAY_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class RecordFactoryTest {
    private static final String URL = "s3://datalake/d-webserver02/syslog/6309e115c2914d0f8622973422626954/data";

    @Test
    void theSpecExampleYieldsOneRecordWithTheSpecKeys() {
        List<Record> records = new RecordFactory().records(Fixtures.syslog(), URL, 1426896791333L, 7892341L);

        assertEquals(1, records.size());
        Record r = records.get(0);
        assertEquals("16514:syslog", r.timeIndexKey().toString());
        assertEquals("webserver02:6309e115c2914d0f8622973422626954", r.rangeKey().toString());
        assertEquals("null6309e115c2914d0f8622973422626954:syslog", r.workIdIndexKey().toString());
        assertEquals(URL, r.url());
        assertEquals(1426896791333L, r.createTime());
        assertEquals(7892341L, r.size());
        assertEquals(0, r.version());
        assertNull(r.expiresAt());
    }

    @Test
    void theOlderSpecExampleBucket() {
        // datalake-backend's example: a file starting at 1437375600000 lives in bucket 16636.
        Metadata m = Fixtures.syslog().withTimes(1437375600000L, null);

        assertEquals("16636:syslog", new RecordFactory().records(m, URL, 0, 0).get(0).timeIndexKey().toString());
    }

    @Test
    void aSetWorkIdIsTheWorkIdKey() {
        Metadata m = new Metadata(0, null, "/a", "job-7", "host", "app", "f1", "a3e75ee4f45f676422e038f2c116d000");

        assertEquals("job-7:app", new RecordFactory().records(m, URL, 0, 0).get(0).workIdIndexKey().toString());
    }

    @Test
    void oneRecordPerBucketIdenticalButForTheBucket() {
        Metadata m = Fixtures.syslog().withTimes(10 * DAY_MS + 12 * 3600_000, 12 * DAY_MS + 1);

        List<Record> records = new RecordFactory().records(m, URL, 5, 6);

        assertEquals(List.of("10:syslog", "11:syslog", "12:syslog"),
                records.stream().map(r -> r.timeIndexKey().toString()).toList());
        records.forEach(r -> {
            assertEquals(m, r.metadata());
            assertEquals("webserver02:6309e115c2914d0f8622973422626954", r.rangeKey().toString());
        });
    }

    @Test
    void aShardedWhatsRecordsGoUnderTheShardOfTheirWhereFromTheMapsFirstDayOn() {
        Metadata m = Fixtures.syslog().withTimes(10 * DAY_MS + 12 * 3600_000, 12 * DAY_MS + 1);
        ShardMap map = ShardMap.EMPTY.with("syslog", new ShardMap.Entry(11, 4));

        List<Record> records = new RecordFactory(30, null, () -> map).records(m, URL, 5, 6);

        // webserver02's shard among 4 is 1 (ShardMapTest's vectors); day 10 is before the first entry
        assertEquals(List.of("10:syslog", "11:syslog#1", "12:syslog#1"),
                records.stream().map(r -> r.timeIndexKey().toString()).toList());
        assertEquals("webserver02:6309e115c2914d0f8622973422626954", records.get(1).rangeKey().toString());
        assertEquals("null6309e115c2914d0f8622973422626954:syslog", records.get(1).workIdIndexKey().toString(),
                "the GSI key is unchanged");
    }

    @Test
    void tooManyBucketsAreRejected() {
        Metadata m = Fixtures.syslog().withTimes(0, 30 * DAY_MS);

        assertThrows(UnsupportedTimeRangeException.class, () -> new RecordFactory().records(m, URL, 0, 0));
        assertEquals(31, new RecordFactory(31, null).records(m, URL, 0, 0).size());
    }

    @Test
    void retentionSetsExpiresAtFromTheEnd() {
        Metadata m = Fixtures.syslog();

        Record r = new RecordFactory(30, 7).records(m, URL, 0, 0).get(0);

        assertEquals(1426895999L + 7 * 86_400L, r.expiresAt());
    }

    @Test
    void retentionOfAnInstantCountsFromItsStart() {
        Metadata m = Fixtures.syslog().withTimes(1426809920345L, null);

        Record r = new RecordFactory(30, 1).records(m, URL, 0, 0).get(0);

        assertEquals(1426809920L + 86_400L, r.expiresAt());
    }

    @Test
    void newerMeansGreaterStartThenGreaterCreateTime() {
        Metadata early = Fixtures.syslog().withTimes(1000, null);
        Metadata late = Fixtures.syslog().withTimes(2000, null);
        Record earlyNew = new Record(0, -1, URL, 900, 1, early, null);
        Record lateOld = new Record(0, -1, URL, 100, 1, late, null);
        Record lateNew = new Record(0, -1, URL, 200, 1, late, null);

        assertEquals(true, lateOld.isNewerThan(earlyNew));
        assertEquals(false, earlyNew.isNewerThan(lateOld));
        assertEquals(true, lateNew.isNewerThan(lateOld));
        assertEquals(false, lateNew.isNewerThan(lateNew));
    }

    @Test
    void invalidConfigurationIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new RecordFactory(0, null));
        assertThrows(IllegalArgumentException.class, () -> new RecordFactory(30, 0));
    }
}
