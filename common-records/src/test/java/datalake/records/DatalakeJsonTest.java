package datalake.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class DatalakeJsonTest {
    private static final String URL = "s3://datalake/a b/ü.txt";

    @Test
    void metadataIsWrittenWithNullsAndIntegers() {
        String json = DatalakeJson.toJson(Fixtures.syslog().withTimes(1426809920345L, null));

        assertEquals("{\"version\":0,\"start\":1426809920345,\"end\":null,\"path\":\"/var/log/syslog.1\","
                + "\"work_id\":null,\"where\":\"webserver02\",\"what\":\"syslog\","
                + "\"id\":\"6309e115c2914d0f8622973422626954\",\"hash\":\"a3e75ee4f45f676422e038f2c116d000\"}", json);
    }

    @Test
    void metadataForAnObjectsHeaderIsAsciiAsThePythonClientWritesIt() {
        Metadata s = Fixtures.syslog();
        Metadata m = new Metadata(s.start(), s.end(), "/data/f\u00fcr/\u65e5\u672c/\ud83d\ude00.csv", s.workId(), s.where(),
                s.what(), s.id(), s.hash());

        String header = DatalakeJson.toObjectMetadata(m);

        // S3 user metadata is US-ASCII; json.dumps escapes the rest, a surrogate pair as two escapes
        assertTrue(header.chars().allMatch(c -> c < 0x80), header);
        assertTrue(header.contains("\"path\":\"/data/f\\u00FCr/\\u65E5\\u672C/\\uD83D\\uDE00.csv\""), header);
        assertEquals(m, DatalakeJson.parseMetadata(header));
    }

    @Test
    void metadataRoundTrips() {
        Metadata m = Fixtures.syslog();

        assertEquals(m, DatalakeJson.parseMetadata(DatalakeJson.toJson(m)));
    }

    @Test
    void recordRoundTripsWithItsKeys() {
        Record r = new RecordFactory(30, 3).records(Fixtures.syslog(), URL, 1426896791333L, 7892341L).get(0);

        String json = DatalakeJson.toJson(r);

        assertTrue(json.contains("\"time_index_key\":\"16514:syslog\""), json);
        assertTrue(json.contains("\"work_id_index_key\":\"null6309e115c2914d0f8622973422626954:syslog\""), json);
        assertTrue(json.contains("\"create_time\":1426896791333,"), json);
        assertEquals(r, DatalakeJson.parseRecord(json));
    }

    @Test
    void aRecordWhoseKeysDisagreeWithItsMetadataIsRejected() {
        Record r = new RecordFactory().records(Fixtures.syslog(), URL, 1, 2).get(0);
        String tampered = DatalakeJson.toJson(r).replace("webserver02:", "other:");

        assertThrows(IllegalArgumentException.class, () -> DatalakeJson.parseRecord(tampered));
    }

    @Test
    void extraFieldsFollowTheNineInMetadataRecordsAndReports() {
        String syslog = Fixtures.SYSLOG_JSON.strip();
        Metadata m = MetadataParser.parse(syslog.substring(0, syslog.length() - 1)
                + ", \"tags\": [\"a\", 1.50, null], \"data-version\": \"3\", \"nested\": {\"ok\": true}}");
        String extras = "\"hash\":\"a3e75ee4f45f676422e038f2c116d000\",\"tags\":[\"a\",1.5,null],\"data-version\":\"3\","
                + "\"nested\":{\"ok\":true}}";
        Record r = new RecordFactory().records(m, URL, 1, 2).get(0);
        StatusReport report = StatusReport.success(1000, 0.25, List.of(StatusReport.FileRecord.of(r)));

        assertTrue(DatalakeJson.toJson(m).endsWith(extras), DatalakeJson.toJson(m));
        assertTrue(DatalakeJson.toObjectMetadata(m).endsWith(extras), DatalakeJson.toObjectMetadata(m));
        assertTrue(DatalakeJson.toJson(r).contains(extras), DatalakeJson.toJson(r));
        assertTrue(DatalakeJson.toJson(report).contains(extras), DatalakeJson.toJson(report));
        assertEquals(r, DatalakeJson.parseRecord(DatalakeJson.toJson(r)));
        assertEquals(report, DatalakeJson.parseReport(DatalakeJson.toJson(report)));
    }

    @Test
    void reportsRoundTrip() {
        StatusReport.FileRecord file = new StatusReport.FileRecord(URL, 7, 8, Fixtures.syslog());
        StatusReport ok = StatusReport.success(1426896791333L, 0.125, List.of(file));
        StatusReport failed = StatusReport.error(1426896791333L, 0.5, List.of(),
                "metadata field 'where' is required and must not be null.");

        assertEquals(ok, DatalakeJson.parseReport(DatalakeJson.toJson(ok)));
        assertEquals(failed, DatalakeJson.parseReport(DatalakeJson.toJson(failed)));
    }

    @Test
    void reportsUseTheIngesterFormat() {
        StatusReport.FileRecord file = new StatusReport.FileRecord(URL, 7, 8, Fixtures.syslog());

        String json = DatalakeJson.toJson(StatusReport.success(1000, 0.25, List.of(file)));

        assertTrue(json.startsWith("{\"status\":\"success\",\"start\":1000,\"duration\":0.25,\"records\":[{\"url\":"),
                json);
        assertTrue(json.contains("\"size\":7,\"create_time\":8,\"metadata\":{"), json);
        assertTrue(!json.contains("message"), json);
    }
}
