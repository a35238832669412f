package datalake.ingester;

import static datalake.ingester.TestFiles.DAY;
import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.RecordItems;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.ingester.IngesterHarness.ReceivedReport;
import datalake.records.MetadataRules;
import datalake.records.Record;
import datalake.records.StatusReport;
import datalake.records.TimeBuckets;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Limits that fit DynamoDB, checked once (common-records' MetadataRules), through the real ingester
 * against dynalite and moto: a value over a limit is refused at parse time, alone, as
 * InvalidMetadata; the longest values within the limits make keys DynamoDB takes in every place we
 * build one (records table, work-id GSI, latest table, per-object item) and that its queries find.
 */
@ExtendWith(EmulatorsExtension.class)
class IngesterLimitsIT {
    private static final Emulators AWS = Emulators.shared();
    /** A slug of every allowed character class: lowercase letters, digits, '-' and '_'. */
    private static final String SLUG_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789-_";
    /** A hash at its limit (hex SHA-512 is as long): stored and served as given. */
    private static final String LONGEST_HASH = "F0".repeat(MetadataRules.MAX_HASH_LENGTH / 2);

    /** A slug of exactly {@code length} characters beginning with {@code prefix}. */
    private static String slug(String prefix, int length) {
        StringBuilder s = new StringBuilder(prefix);
        while (s.length() < length) {
            s.append(SLUG_CHARACTERS);
        }
        return s.substring(0, length);
    }

    private static int utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    @ParameterizedTest(name = "{0} of {1} characters")
    @CsvSource({"where, 257", "what, 257", "work_id, 257", "id, 129"})
    void aValueOverItsLimitIsDeadLetteredAloneAsInvalidMetadata(String field, int length) {
        // given nine good uploads and one whose field is one character over its limit
        try (IngesterHarness s = IngesterHarness.create(AWS, "limits")) {
            for (int i = 0; i < 9; i++) {
                s.put("good-" + i + ".log", metadata("good" + i, START + i, null));
            }
            String tooLong = "x".repeat(length);
            s.put("too-long.log", metadata(field.equals("what") ? tooLong : "syslog",
                    field.equals("where") ? tooLong : "webserver02", field.equals("id") ? tooLong : "too-long",
                    START, null, field.equals("work_id") ? tooLong : null));
            List<Message> batch = s.receive(10);

            // when the ten are handled in one batch
            Set<String> retried = s.handle(batch);

            // then nothing is retried, the nine are indexed, and the one is dead-lettered saying which rule it broke
            assertEquals(Set.of(), retried);
            assertEquals(9, s.records().size());
            assertEquals(List.of(), s.recordsOf("too-long.log"));
            String limit = field.equals("id") ? "1 to " + MetadataRules.MAX_ID_LENGTH + " characters"
                    : "at most " + MetadataRules.MAX_SLUG_LENGTH + " characters";
            Message letter = s.deadLetters(1).get(0);
            assertEquals("InvalidMetadata", letter.messageAttributes().get("error_kind").stringValue());
            String reason = letter.messageAttributes().get("error_message").stringValue();
            assertTrue(reason.contains("too-long.log") && reason.contains("'" + field + "'") && reason.contains(limit),
                    reason);
            List<ReceivedReport> reports = s.reports(10);
            assertEquals(9, reports.stream().filter(r -> r.report().status() == StatusReport.Status.SUCCESS).count());
            List<String> errors = reports.stream().filter(r -> r.report().status() == StatusReport.Status.ERROR)
                    .map(r -> r.report().message()).toList();
            assertEquals(1, errors.size());
            assertTrue(errors.get(0).contains("'" + field + "'") && errors.get(0).contains(limit), errors.get(0));
            s.assertEmpty(s.stack.deadLetterQueueUrl());
            s.assertEmpty(s.stack.ingestQueueUrl());
        }
    }

    @Test
    void theLongestAllowedValuesAreIndexedInEveryKeyAndFound() {
        // given the longest what, where and work_id, and ids of 128 three-byte characters (384 bytes of UTF-8),
        // one file over four day buckets with a work_id and one without (its GSI key is null<id>)
        String what = slug("what-", MetadataRules.MAX_SLUG_LENGTH);
        String where = slug("where-", MetadataRules.MAX_SLUG_LENGTH);
        String workId = slug("work-", MetadataRules.MAX_SLUG_LENGTH);
        String longId = "\u20ac".repeat(MetadataRules.MAX_ID_LENGTH);
        String otherId = "\u20ac".repeat(MetadataRules.MAX_ID_LENGTH - 1) + "x";
        long end = START + 3 * DAY;
        try (IngesterHarness s = IngesterHarness.create(AWS, "longest")) {
            s.put("longest.log", longest(what, where, longId, START, end, workId));
            s.put("longest-no-work.log", longest(what, where, otherId, START + DAY, null, null));

            // when
            Set<String> retried = s.handle(s.receive(2));

            // then both are indexed, none dead-lettered
            assertEquals(Set.of(), retried);
            s.assertEmpty(s.stack.deadLetterQueueUrl());
            assertTrue(s.reports(2).stream().allMatch(r -> r.report().status() == StatusReport.Status.SUCCESS));
            List<Record> records = s.recordsOf("longest.log");
            assertEquals(4, records.size());
            assertEquals(1, s.recordsOf("longest-no-work.log").size());
            assertEquals(LONGEST_HASH, records.get(0).metadata().hash());

            // and each key is stored whole, at its longest: range key 641 bytes, GSI hash keys 513 and 643
            String rangeKey = where + ":" + longId;
            assertEquals(MetadataRules.MAX_SLUG_LENGTH + 1 + MetadataRules.MAX_ID_BYTES, utf8(rangeKey));
            for (Map<String, AttributeValue> item : itemsOf(s, "longest.log")) {
                assertEquals(rangeKey, item.get(RecordItems.RANGE_KEY).s());
                assertEquals(workId + ":" + what, item.get(RecordItems.WORK_ID_INDEX_KEY).s());
                assertTrue(item.get(RecordItems.TIME_INDEX_KEY).s().endsWith(":" + what));
            }
            String nullWorkKey = "null" + otherId + ":" + what;
            assertEquals(643, utf8(nullWorkKey));
            assertEquals(nullWorkKey, itemsOf(s, "longest-no-work.log").get(0).get(RecordItems.WORK_ID_INDEX_KEY).s());

            // and the latest table's what_where_key (513 bytes) holds the later file
            Record latest = s.latest(what, where);
            assertNotNull(latest);
            assertEquals(otherId, latest.metadata().id());

            // and the per-object item lists the four record keys
            ObjectEntry entry = s.objectEntry("longest.log");
            assertTrue(entry.indexed());
            assertEquals(4, entry.recordKeys().size());

            // and the queries the API makes find them: time (each bucket, one where) and work id
            Set<String> found = new TreeSet<>();
            for (long bucket = TimeBuckets.bucketOf(START); bucket <= TimeBuckets.bucketOf(end); bucket++) {
                String hash = bucket + ":" + what;
                for (Map<String, AttributeValue> item : query(s, b -> b
                        .keyConditionExpression("#h = :h AND begins_with(#r, :r)")
                        .expressionAttributeNames(Map.of("#h", RecordItems.TIME_INDEX_KEY, "#r", RecordItems.RANGE_KEY))
                        .expressionAttributeValues(Map.of(":h", AttributeValue.fromS(hash),
                                ":r", AttributeValue.fromS(where + ":"))))) {
                    found.add(bucket + " " + item.get(RecordItems.URL).s());
                }
            }
            long first = TimeBuckets.bucketOf(START);
            assertEquals(new TreeSet<>(List.of(first + " " + s.url("longest.log"),
                    (first + 1) + " " + s.url("longest.log"), (first + 1) + " " + s.url("longest-no-work.log"),
                    (first + 2) + " " + s.url("longest.log"), (first + 3) + " " + s.url("longest.log"))), found);
            assertEquals(4, query(s, b -> b.indexName(RecordItems.WORK_ID_INDEX)
                    .keyConditionExpression("#h = :h")
                    .expressionAttributeNames(Map.of("#h", RecordItems.WORK_ID_INDEX_KEY))
                    .expressionAttributeValues(Map.of(":h", AttributeValue.fromS(workId + ":" + what)))).size());
            assertEquals(1, query(s, b -> b.indexName(RecordItems.WORK_ID_INDEX)
                    .keyConditionExpression("#h = :h")
                    .expressionAttributeNames(Map.of("#h", RecordItems.WORK_ID_INDEX_KEY))
                    .expressionAttributeValues(Map.of(":h", AttributeValue.fromS(nullWorkKey)))).size());
        }
    }

    /**
     * Metadata with the longest values, as the Python client writes it ({@code json.dumps}: non-ASCII as
     * {@code \\u} escapes) and with a short path, so that it stays within S3's 2 KB of user metadata.
     */
    private static String longest(String what, String where, String id, long start, Long end, String workId) {
        StringBuilder escapedId = new StringBuilder();
        for (char c : id.toCharArray()) {
            escapedId.append(c < 0x80 ? String.valueOf(c) : String.format("\\u%04x", (int) c));
        }
        String json = "{\"version\":0,\"start\":" + start + ",\"end\":" + end + ",\"path\":\"/var/log/longest.log\","
                + "\"work_id\":" + (workId == null ? "null" : "\"" + workId + "\"") + ",\"where\":\"" + where
                + "\",\"what\":\"" + what + "\",\"id\":\"" + escapedId + "\",\"hash\":\"" + LONGEST_HASH + "\"}";
        assertTrue(json.length() + "datalake".length() <= 2048, "over S3's 2 KB of user metadata: " + json.length());
        return json;
    }

    private static List<Map<String, AttributeValue>> itemsOf(IngesterHarness s, String key) {
        String url = s.url(key);
        return s.items().stream().filter(i -> url.equals(i.get(RecordItems.URL).s())).toList();
    }

    private static List<Map<String, AttributeValue>> query(IngesterHarness s,
            UnaryOperator<QueryRequest.Builder> request) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        s.backend.dynamoDb().queryPaginator(request.apply(QueryRequest.builder()
                .tableName(s.stack.recordsTable())).build()).items().forEach(items::add);
        return items;
    }
}
