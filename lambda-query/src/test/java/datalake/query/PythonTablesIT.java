package datalake.query;

import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import datalake.dynamodb.RecordItems;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.emulators.HttpApiServer;
import datalake.lambda.JsonLog;
import datalake.records.TimeBuckets;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Tables written by the Python datalake, read through the query API on dynalite and moto. The
 * fixtures are the PyPI {@code datalake} package's own records ({@link PythonRecordWriter}): the first
 * record format (no {@code create_time}, no {@code size}), a hash that is not 32 hex characters, and
 * its ingester's latest-table items (no {@code size}). Validate on ingest, be liberal on read: each is
 * served as stored; only an item that is no record at all is left out, and then logged and counted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(EmulatorsExtension.class)
class PythonTablesIT {
    static final Emulators AWS = Emulators.shared();
    /** A sha256, as a team may have pushed: the Python datalake never checked the hash's form. */
    private static final String ODD_HASH = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    private static final String MD5 = "0123456789abcdef0123456789abcdef";
    private static final String BROKEN_RANGE_KEY = "web-1:broken-no-metadata";
    /** Now, for latest: a day after the newest file, so that every latest-table entry lies in the lookback. */
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(T0 + 3 * DAY), ZoneOffset.UTC);

    @TempDir
    static Path work;
    private QueryHarness tables;
    /** What the handler logged in the current test. */
    private final List<String> logged = new CopyOnWriteArrayList<>();
    private QueryHandler handler;

    @BeforeAll
    void writeTheTablesAsThePythonDatalakeDid() {
        tables = QueryHarness.create(AWS, "python-tables");
        AWS.s3().createBucket(r -> r.bucket(tables.stack().bucket()));
        new PythonRecordWriter(AWS, tables).write(List.of(
                file("first-instant", "web-1", T0 + DAY + 3_600_000L, null, MD5, null, null, Map.of("first_format", true)),
                file("first-span", "web-1", T0 + DAY + 7_200_000L, T0 + 2 * DAY + 10_800_000L, MD5, null, null,
                        Map.of("first_format", true)),
                file("current", "web-1", T0 + 2 * DAY + 18_000_000L, null, MD5, T0 + 2 * DAY + 18_060_000L, 1234L,
                        Map.of("latest", true)),
                file("odd-hash", "web-2", T0 + DAY + 36_000_000L, null, ODD_HASH, T0 + DAY + 36_060_000L, 99L,
                        Map.of("latest", true, "object", true))));
        // no metadata map: nothing of it can be placed in time, so it cannot be served
        Map<String, AttributeValue> broken = new HashMap<>();
        broken.put(RecordItems.TIME_INDEX_KEY, AttributeValue.fromS(TimeBuckets.bucketOf(T0 + DAY) + ":syslog"));
        broken.put(RecordItems.RANGE_KEY, AttributeValue.fromS(BROKEN_RANGE_KEY));
        broken.put(RecordItems.WORK_ID_INDEX_KEY, AttributeValue.fromS("job-py:syslog"));
        broken.put(RecordItems.URL, AttributeValue.fromS("s3://" + tables.stack().bucket() + "/broken/data"));
        AWS.dynamoDb().putItem(r -> r.tableName(tables.stack().recordsTable()).item(broken));
    }

    @BeforeEach
    void newHandler() {
        logged.clear();
        handler = tables.handler(true, new JsonLog("datalake.query", logged::add, CLOCK), CLOCK);
    }

    /** A file for the script: Metadata's keyword arguments and the record's create_time and size. */
    private static Map<String, Object> file(String id, String where, long start, Long end, String hash,
            Long createTime, Long size, Map<String, ?> options) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("version", 0);
        metadata.put("start", start);
        metadata.put("end", end);
        metadata.put("path", "/var/log/" + id + ".log");
        metadata.put("work_id", "job-py");
        metadata.put("where", where);
        metadata.put("what", "syslog");
        metadata.put("id", id);
        metadata.put("hash", hash);
        Map<String, Object> file = new LinkedHashMap<String, Object>(options);
        file.put("metadata", metadata);
        file.put("create_time", createTime);
        file.put("size", size);
        return file;
    }

    private APIGatewayV2HTTPResponse get(String path, String query) {
        return handler.handleRequest(Events.get(path, query), Events.QUIET);
    }

    /** The records of a files query, by id, after checking that it is one complete 200 page. */
    private Map<String, JsonNode> records(String query) {
        APIGatewayV2HTTPResponse response = get("/v0/archive/files/", query);
        assertEquals(200, response.getStatusCode(), response.getBody());
        JsonNode page = Events.body(response);
        assertTrue(page.path("next").isNull());
        Map<String, JsonNode> byId = new LinkedHashMap<>();
        for (JsonNode record : page.path("records")) {
            assertEquals(null, byId.put(record.path("metadata").path("id").asText(), record), "no file twice");
        }
        return byId;
    }

    private static Map<String, AttributeValue> item(String table, Map<String, AttributeValue> key) {
        return AWS.dynamoDb().getItem(r -> r.tableName(table).key(key)).item();
    }

    /** Each record as the Python datalake answers it: create_time and size as stored, null when absent. */
    private static void assertServedAsStored(Map<String, JsonNode> records) {
        assertEquals(Set.of("first-instant", "first-span", "current", "odd-hash"), records.keySet());
        for (String first : List.of("first-instant", "first-span")) {
            JsonNode record = records.get(first);
            assertTrue(record.has("create_time") && record.path("create_time").isNull(), record.toString());
            assertTrue(record.has("size") && record.path("size").isNull(), record.toString());
            assertEquals(MD5, record.path("metadata").path("hash").asText());
            assertTrue(record.path("url").asText().endsWith("/" + first + "/data"));
        }
        assertEquals(T0 + 2 * DAY + 10_800_000L, records.get("first-span").path("metadata").path("end").asLong());
        assertEquals(ODD_HASH, records.get("odd-hash").path("metadata").path("hash").asText());
        assertEquals(99L, records.get("odd-hash").path("size").asLong());
        assertEquals(T0 + 2 * DAY + 18_060_000L, records.get("current").path("create_time").asLong());
        assertEquals(1234L, records.get("current").path("size").asLong());
    }

    @Test
    void theFixturesAreThePythonDatalakesOwnShapes() {
        // given what the package wrote: the first format has neither key, the latest entry no size
        Map<String, AttributeValue> first = item(tables.stack().recordsTable(), Map.of(
                RecordItems.TIME_INDEX_KEY, AttributeValue.fromS(TimeBuckets.bucketOf(T0 + DAY) + ":syslog"),
                RecordItems.RANGE_KEY, AttributeValue.fromS("web-1:first-instant")));
        Map<String, AttributeValue> latest = item(tables.stack().latestTable(), Map.of(
                RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS("syslog:web-1")));

        assertEquals("job-py:syslog", first.get(RecordItems.WORK_ID_INDEX_KEY).s());
        assertFalse(first.containsKey(RecordItems.CREATE_TIME) || first.containsKey(RecordItems.SIZE), first.toString());
        assertEquals("web-1:current", latest.get(RecordItems.RANGE_KEY).s());
        assertFalse(latest.containsKey(RecordItems.SIZE), latest.toString());
    }

    @Test
    void aTimeQueryServesEveryRecordAsStored() {
        Map<String, JsonNode> records = records("what=syslog&start=" + T0 + "&end=" + (T0 + 3 * DAY));

        assertServedAsStored(records);
    }

    @Test
    void aWorkIdQueryServesEveryRecordAsStored() {
        Map<String, JsonNode> records = records("what=syslog&work_id=job-py");
        Map<String, JsonNode> web1 = records("what=syslog&where=web-1&work_id=job-py");

        assertServedAsStored(records);
        assertEquals(Set.of("first-instant", "first-span", "current"), web1.keySet());
    }

    @Test
    void theMetadataOfAFileWithAnOddHashIsServed() {
        APIGatewayV2HTTPResponse response = get("/v0/archive/files/odd-hash/metadata", null);

        assertEquals(200, response.getStatusCode(), response.getBody());
        JsonNode metadata = Events.body(response);
        assertEquals(ODD_HASH, metadata.path("hash").asText());
        assertEquals("web-2", metadata.path("where").asText());
        assertEquals(T0 + DAY + 36_000_000L, metadata.path("start").asLong());
    }

    @Test
    void latestAnswersTheIngestersEntryWithoutSize() {
        APIGatewayV2HTTPResponse web1 = get("/v0/archive/latest/syslog/web-1", null);
        APIGatewayV2HTTPResponse web2 = get("/v0/archive/latest/syslog/web-2", null);

        assertEquals(200, web1.getStatusCode(), web1.getBody());
        JsonNode current = Events.body(web1);
        assertEquals("current", current.path("metadata").path("id").asText());
        assertTrue(current.has("size") && current.path("size").isNull(), current.toString());
        assertEquals(T0 + 2 * DAY + 18_060_000L, current.path("create_time").asLong());
        assertEquals(200, web2.getStatusCode(), web2.getBody());
        assertEquals(ODD_HASH, Events.body(web2).path("metadata").path("hash").asText());
    }

    @Test
    void anItemThatIsNoRecordIsLeftOutLoggedWithItsKeyAndCounted() {
        Map<String, JsonNode> byTime = records("what=syslog&where=web-1&start=" + T0 + "&end=" + (T0 + 3 * DAY));
        List<String> timeLog = new ArrayList<>(logged);
        logged.clear();
        Map<String, JsonNode> byWorkId = records("what=syslog&work_id=job-py");

        assertEquals(Set.of("first-instant", "first-span", "current"), byTime.keySet());
        assertEquals(Set.of("first-instant", "first-span", "current", "odd-hash"), byWorkId.keySet());
        for (List<String> lines : List.of(timeLog, new ArrayList<>(logged))) {
            List<JsonNode> warnings = lines(lines).stream().filter(l -> "WARN".equals(l.path("level").asText())).toList();
            assertEquals(1, warnings.size(), lines.toString());
            assertEquals(BROKEN_RANGE_KEY, warnings.get(0).path(RecordItems.RANGE_KEY).asText());
            assertEquals(tables.stack().recordsTable(), warnings.get(0).path("table").asText());
            assertTrue(warnings.get(0).path("reason").asText().contains("no metadata map"), lines.toString());
            JsonNode metric = lines(lines).stream().filter(l -> l.has("_aws")).findFirst()
                    .orElseThrow(() -> new AssertionError("no metric document among " + lines));
            assertEquals(1, metric.path(UnreadableItems.METRIC).asInt());
            assertEquals(UnreadableItems.METRIC,
                    metric.path("_aws").path("CloudWatchMetrics").path(0).path("Metrics").path(0).path("Name").asText());
            assertEquals(tables.stack().query().functionName(), metric.path("Function").asText());
        }
    }

    @Test
    void theDatalakeClientListsThemAndPrintsTheLatest() throws IOException {
        try (HttpApiServer server = HttpApiServer.start((event, context) -> handler.handleRequest(event, Events.QUIET),
                0)) {
            DatalakeClient client = new DatalakeClient(server.url(), "s3://" + tables.stack().bucket(),
                    AWS.motoEndpoint(), Emulators.ACCESS_KEY_ID, Emulators.SECRET_ACCESS_KEY);

            DatalakeClient.Result list = client.run(work, "list", "syslog", "--work-id", "job-py", "--format", "json");
            DatalakeClient.Result latest = client.run(work, "latest", "syslog", "web-1");

            assertEquals(0, list.exitCode(), list.stderr());
            Map<String, JsonNode> listed = new LinkedHashMap<>();
            for (String line : list.lines()) {
                JsonNode record = Events.JSON.readTree(line);
                listed.put(record.path("metadata").path("id").asText(), record);
            }
            assertServedAsStored(listed);
            assertEquals(0, latest.exitCode(), latest.stderr());
            assertEquals(List.of("s3://" + tables.stack().bucket() + "/current/data"), latest.lines());
        }
    }

    private static List<JsonNode> lines(List<String> lines) {
        List<JsonNode> parsed = new ArrayList<>(lines.size());
        for (String line : lines) {
            try {
                parsed.add(Events.JSON.readTree(line));
            } catch (IOException e) {
                throw new AssertionError("a log line is not JSON: " + line, e);
            }
        }
        return parsed;
    }
}
