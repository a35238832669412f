package datalake.ingester;

import static datalake.ingester.TestFiles.HASH;
import static org.junit.jupiter.api.Assertions.assertEquals;

import datalake.dynamodb.RecordItems;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.records.Metadata;
import datalake.records.Record;
import datalake.records.StatusReport;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Times given as strings in metadata are read as datalake-common's {@code normalize_date} reads them,
 * through the real ingester against dynalite and moto: a string of digits is that number
 * (seconds up to 1e11, milliseconds above), a decimal string too, ISO-8601 text a date; each is
 * stored as milliseconds, in the day buckets it spans, and not dead-lettered.
 */
@ExtendWith(EmulatorsExtension.class)
class TextTimesIT {
    private static final Emulators AWS = Emulators.shared();

    private static String metadata(String id, String start, String end) {
        return "{\"version\":0,\"start\":\"" + start + "\",\"end\":\"" + end + "\",\"path\":\"/var/log/" + id
                + ".log\",\"work_id\":null,\"where\":\"webserver02\",\"what\":\"syslog\",\"id\":\"" + id
                + "\",\"hash\":\"" + HASH + "\"}";
    }

    @Test
    void timesAsStringsAreIndexedAsTheirMilliseconds() {
        try (IngesterHarness s = IngesterHarness.create(AWS, "text-times")) {
            // given the spec example with its times as strings of milliseconds, the same as seconds with a
            // decimal fraction reaching into the next day, and as ISO-8601 text
            s.put("millis.log", metadata("millis", "1426809920345", "1426895999114"));
            s.put("seconds.log", metadata("seconds", "1426809920.345", "1426896000.5"));
            s.put("iso.log", metadata("iso", "2015-03-20T00:05:20.345Z", "2015-03-21 00:00:00"));

            // when
            Set<String> retried = s.handle(s.receive(3));

            // then all three are indexed in the buckets of their times, with the times as numbers
            assertEquals(Set.of(), retried);
            s.assertEmpty(s.stack.deadLetterQueueUrl());
            assertEquals(3, s.reports(3).stream().filter(r -> r.report().status() == StatusReport.Status.SUCCESS).count());
            assertIndexed(s, "millis.log", 1426809920345L, 1426895999114L, List.of(16514L));
            assertIndexed(s, "seconds.log", 1426809920345L, 1426896000500L, List.of(16514L, 16515L));
            assertIndexed(s, "iso.log", 1426809920345L, 1426896000000L, List.of(16514L, 16515L));
        }
    }

    private static void assertIndexed(IngesterHarness s, String key, long start, long end, List<Long> buckets) {
        List<Record> records = s.recordsOf(key);
        assertEquals(buckets, records.stream().map(Record::bucket).sorted().toList(), key);
        for (Record record : records) {
            Metadata m = record.metadata();
            assertEquals(start, m.start(), key);
            assertEquals(end, m.end(), key);
        }
        String url = s.url(key);
        for (Map<String, AttributeValue> item : s.items()) {
            if (url.equals(item.get(RecordItems.URL).s())) {
                Map<String, AttributeValue> stored = item.get(RecordItems.METADATA).m();
                assertEquals(Long.toString(start), stored.get("start").n(), key);
                assertEquals(Long.toString(end), stored.get("end").n(), key);
            }
        }
    }
}
