package datalake.query;

import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;
import static datalake.query.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.lambda.JsonLog;
import datalake.records.DatalakeJson;
import datalake.records.Metadata;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.retries.DefaultRetryStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * The four queries of the spec (time range with and without WHERE, work id with and without WHERE),
 * latest and bad queries, through {@link QueryHandler} against dynalite, with records written
 * the way the ingester writes them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(EmulatorsExtension.class)
class QueryIT {
        static final Emulators AWS = Emulators.shared();

    private QueryHarness tables;
    private QueryHandler handler;
    /** Every file written, for computing what each query should return. */
    private final List<Metadata> files = new ArrayList<>();

    @BeforeAll
    void writeFiles() {
        tables = QueryHarness.create(AWS, "query-it");
        handler = tables.handler(false);
        Random random = new Random(42);
        List<String> wheres = List.of("web-1", "web-2", "db", "web");
        List<String> workIds = new ArrayList<>(List.of("job-a", "job-b", "job-c"));
        workIds.add(null);
        for (int i = 0; i < 400; i++) {
            long start = T0 + (long) (random.nextDouble() * 20 * DAY);
            Long end = switch (i % 4) {
                case 0 -> null;                                              // an instant
                case 1 -> start + (long) (random.nextDouble() * DAY / 4);    // within a day, mostly
                case 2 -> start + DAY + (long) (random.nextDouble() * 3 * DAY); // two to five buckets
                default -> start + 1;
            };
            String what = i % 10 == 9 ? "nginx" : "syslog";
            files.add(file(String.format("f-%04d", i), what, wheres.get(i % wheres.size()), start, end,
                    workIds.get((i / 4) % workIds.size())));
        }
        // boundaries: instants exactly on a query's ends, files ending or starting exactly at midnight
        files.add(file("edge-instant-start", "syslog", "web-1", T0 + 5 * DAY + 1000, null, "job-edge"));
        files.add(file("edge-instant-end", "syslog", "web-1", T0 + 8 * DAY + 2000, null, "job-edge"));
        files.add(file("edge-ends-at-midnight", "syslog", "web-1", T0 + 4 * DAY + 7, T0 + 5 * DAY, "job-edge"));
        files.add(file("edge-starts-at-midnight", "syslog", "db", T0 + 8 * DAY, T0 + 9 * DAY, "job-edge"));
        tables.write(files);
    }

    private APIGatewayV2HTTPResponse get(String path, String query) {
        return handler.handleRequest(Events.get(path, query), Events.QUIET);
    }

    /** Follows next as the client does; returns the ids in the order received. */
    private List<String> allIds(String query, List<Integer> pageSizes) {
        List<String> ids = new ArrayList<>();
        APIGatewayV2HTTPResponse response = get("/v0/archive/files/", query);
        while (true) {
            assertEquals(200, response.getStatusCode(), response.getBody());
            JsonNode page = Events.body(response);
            pageSizes.add(page.path("records").size());
            for (JsonNode record : page.path("records")) {
                ids.add(record.path("metadata").path("id").asText());
                assertTrue(record.path("http_url").asText().endsWith("/v0/archive/files/"
                        + record.path("metadata").path("id").asText() + "/data"));
            }
            if (page.path("next").isNull()) {
                return ids;
            }
            URI next = URI.create(page.path("next").asText());
            response = get(next.getRawPath(), next.getRawQuery());
        }
    }

    private Set<String> expected(Predicate<Metadata> matches) {
        return files.stream().filter(matches).map(Metadata::id).collect(Collectors.toSet());
    }

    private void assertExactlyOnce(Set<String> expected, List<String> got) {
        assertEquals(got.size(), new HashSet<>(got).size(), "no file twice");
        assertEquals(expected, new HashSet<>(got));
    }

    @Test
    void timeRangeForOneWhere() {
        long s = T0 + 2 * DAY + 3_600_000;
        long e = T0 + 6 * DAY + 7_200_000;

        List<String> got = allIds("what=syslog&where=web-1&start=" + s + "&end=" + e, new ArrayList<>());

        Set<String> want = expected(m -> m.what().equals("syslog") && m.where().equals("web-1")
                && TestFiles.intersects(m, s, e));
        assertTrue(want.size() > 10, "a meaningful sample: " + want.size());
        assertExactlyOnce(want, got);
    }

    @Test
    void timeRangeForEveryWhere() {
        long s = T0 + 3 * DAY;
        long e = T0 + 10 * DAY;

        List<String> got = allIds("what=syslog&start=" + s + "&end=" + e, new ArrayList<>());

        Set<String> want = expected(m -> m.what().equals("syslog") && TestFiles.intersects(m, s, e));
        assertTrue(want.size() > 100, "more than a page: " + want.size());
        assertExactlyOnce(want, got);
    }

    @Test
    void workIdForOneWhere() {
        List<String> got = allIds("what=syslog&where=web-2&work_id=job-b", new ArrayList<>());

        Set<String> want = expected(m -> m.what().equals("syslog") && m.where().equals("web-2")
                && "job-b".equals(m.workId()));
        assertTrue(want.size() > 5);
        assertExactlyOnce(want, got);
    }

    @Test
    void workIdForEveryWhere() {
        List<String> got = allIds("what=syslog&work_id=job-a", new ArrayList<>());

        Set<String> want = expected(m -> m.what().equals("syslog") && "job-a".equals(m.workId()));
        assertTrue(files.stream().anyMatch(m -> "job-a".equals(m.workId()) && m.end() != null
                && m.end() - m.start() > DAY), "some of them span several buckets");
        assertExactlyOnce(want, got);
    }

    @Test
    void instantsCountByTheirStartAndBoundariesAreInclusive() {
        long s = T0 + 5 * DAY + 1000;   // edge-instant-start starts exactly here
        long e = T0 + 8 * DAY + 2000;   // edge-instant-end starts exactly here

        Set<String> got = new HashSet<>(allIds("what=syslog&where=web-1&start=" + s + "&end=" + e, new ArrayList<>()));
        Set<String> justInside = new HashSet<>(allIds("what=syslog&where=web-1&start=" + (s + 1) + "&end=" + (e - 1),
                new ArrayList<>()));

        assertTrue(got.containsAll(Set.of("edge-instant-start", "edge-instant-end")));
        assertTrue(!justInside.contains("edge-instant-start") && !justInside.contains("edge-instant-end"));
        assertEquals(expected(m -> m.what().equals("syslog") && m.where().equals("web-1")
                && TestFiles.intersects(m, s + 1, e - 1)), justInside);
    }

    @Test
    void filesEndingOrStartingAtMidnightAreFoundFromEitherDay() {
        // edge-ends-at-midnight ends at 00:00 of day 5; edge-starts-at-midnight starts at 00:00 of day 8
        Set<String> day5 = new HashSet<>(allIds("what=syslog&start=" + (T0 + 5 * DAY) + "&end=" + (T0 + 5 * DAY + 10),
                new ArrayList<>()));
        Set<String> day7 = new HashSet<>(allIds("what=syslog&where=db&start=" + (T0 + 7 * DAY) + "&end="
                + (T0 + 8 * DAY - 1), new ArrayList<>()));

        assertTrue(day5.contains("edge-ends-at-midnight"));
        assertTrue(!day7.contains("edge-starts-at-midnight"));
    }

    @ParameterizedTest
    @CsvSource({
            "0.5, 3.25",     // from 12:00 of day 0 to 06:00 of day 3
            "1.9, 2.1",      // across one midnight
            "4.99, 13.01",   // nine buckets, both ends a few minutes from midnight
            "0.0, 19.999",   // the whole data set
            "7.3, 7.4"})     // inside one bucket
    void unalignedRangesReturnExactlyTheIntersectingFiles(double fromDays, double toDays) {
        long s = T0 + (long) (fromDays * DAY);
        long e = T0 + (long) (toDays * DAY);

        List<String> got = allIds("what=syslog&start=" + s + "&end=" + e, new ArrayList<>());

        assertExactlyOnce(expected(m -> m.what().equals("syslog") && TestFiles.intersects(m, s, e)), got);
    }

    @Test
    void isoTimesAskTheSameAsMilliseconds() {
        List<String> iso = allIds("what=syslog&start=2024-01-03T06:00:00Z&end=2024-01-05T18:30:00.500Z",
                new ArrayList<>());
        List<String> ms = allIds("what=syslog&start=" + (T0 + 2 * DAY + DAY / 4) + "&end=" + (T0 + 4 * DAY + 3 * DAY / 4
                + 1_800_500), new ArrayList<>());

        assertEquals(ms, iso);
    }

    @Test
    void aQueryOfAnotherWhatOrAnEmptyRangeFindsNothing() {
        JsonNode none = Events.body(get("/v0/archive/files/", "what=kernel&start=" + T0 + "&end=" + (T0 + 20 * DAY)));
        JsonNode before = Events.body(get("/v0/archive/files/", "what=syslog&start=" + (T0 - 10 * DAY) + "&end="
                + (T0 - 1)));

        assertEquals(0, none.path("records").size());
        assertTrue(none.path("next").isNull());
        assertEquals(0, before.path("records").size());
    }

    @Test
    void latestByScanningBackAndFromTheLatestTable() {
        // given files of a WHERE over the last days, and an out-of-date latest table entry
        long now = System.currentTimeMillis();
        QueryHarness latest = QueryHarness.create(AWS, "query-it-latest");
        List<Metadata> recent = List.of(
                file("three-days-ago", "syslog", "h", now - 3 * DAY, null),
                file("yesterday", "syslog", "h", now - DAY, now - DAY + 60_000L),
                file("other-where", "syslog", "h2", now - 1000, null),
                file("ancient", "syslog", "old", now - 20 * DAY, null));
        latest.write(recent);
        Record tableEntry = new RecordFactory().records(file("in-table", "syslog", "h", now - 2 * DAY, null),
                "s3://bucket/in-table/data", now, 1).get(0);
        latest.writeLatest(tableEntry);

        JsonNode scanned = Events.body(latest.handler(false).handleRequest(
                Events.get("/v0/archive/latest/syslog/h", ""), Events.QUIET));
        JsonNode fromTable = Events.body(latest.handler(true).handleRequest(
                Events.get("/v0/archive/latest/syslog/h", ""), Events.QUIET));
        APIGatewayV2HTTPResponse tooOld = latest.handler(false).handleRequest(
                Events.get("/v0/archive/latest/syslog/old", ""), Events.QUIET);
        JsonNode withLookback = Events.body(latest.handler(true).handleRequest(
                Events.get("/v0/archive/latest/syslog/old", "lookback=21"), Events.QUIET));

        assertEquals("yesterday", scanned.path("metadata").path("id").asText());
        assertTrue(scanned.path("http_url").asText().endsWith("/v0/archive/files/yesterday/data"));
        assertEquals("in-table", fromTable.path("metadata").path("id").asText());
        assertEquals(404, tooOld.getStatusCode());
        assertEquals("NoSuchFile", Events.body(tooOld).path("code").asText());
        assertEquals("ancient", withLookback.path("metadata").path("id").asText());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''|NoArgs",
            "where=web-1&start=1&end=2|NoWhat",
            "what=syslog&where=web-1|NoWorkInterval",
            "what=syslog&work_id=job-a&start=1&end=2|InvalidWorkInterval",
            "what=syslog&end=2|InvalidWorkInterval",
            "what=syslog&start=5&end=4|InvalidWorkInterval",
            "what=syslog&start=1704067200000&end=next-week|InvalidTime",
            "what=syslog&start=1&end=2&cursor=Zm9v|InvalidCursor"})
    void badQueriesAre400WithTheirCode(String query, String code) {
        APIGatewayV2HTTPResponse response = get("/v0/archive/files/", query);

        assertEquals(400, response.getStatusCode());
        assertEquals(code, Events.body(response).path("code").asText());
    }

    @Test
    void aTamperedOrTransplantedCursorIs400() {
        String query = "what=syslog&start=" + T0 + "&end=" + (T0 + 20 * DAY);
        URI next = URI.create(Events.body(get("/v0/archive/files/", query)).path("next").asText());
        Map<String, String> params = ApiRequest.parseQuery(next.getRawQuery());
        String cursor = params.get("cursor");
        String flipped = cursor.substring(0, 5) + (cursor.charAt(5) == 'x' ? 'y' : 'x') + cursor.substring(6);

        APIGatewayV2HTTPResponse tampered = get("/v0/archive/files/", query + "&cursor=" + flipped);
        APIGatewayV2HTTPResponse transplanted = get("/v0/archive/files/",
                "what=nginx&start=" + T0 + "&end=" + (T0 + 20 * DAY) + "&cursor=" + cursor);
        APIGatewayV2HTTPResponse widened = get("/v0/archive/files/",
                "what=syslog&start=" + (T0 - DAY) + "&end=" + (T0 + 20 * DAY) + "&cursor=" + cursor);

        for (APIGatewayV2HTTPResponse response : List.of(tampered, transplanted, widened)) {
            assertEquals(400, response.getStatusCode());
            assertEquals("InvalidCursor", Events.body(response).path("code").asText());
        }
    }

    /** moto answers GetObject of a GLACIER object with InvalidObjectState, as S3 does, and HeadObject with its class. */
    @Test
    void theDataOfAFileArchivedInGlacierIs409WhileItsMetadataAnswers() {
        Metadata cold = file("cold", "syslog", "web", T0, null, null);
        AWS.s3().createBucket(r -> r.bucket(tables.stack().bucket()));
        AWS.s3().putObject(r -> r.bucket(tables.stack().bucket()).key("cold/data").storageClass(StorageClass.GLACIER)
                .metadata(Map.of("datalake", DatalakeJson.toJson(cold))), RequestBody.fromString("cold\n"));

        APIGatewayV2HTTPResponse data = get("/v0/archive/files/cold/data", "");
        APIGatewayV2HTTPResponse metadata = get("/v0/archive/files/cold/metadata", "");

        assertEquals(409, data.getStatusCode(), data.getBody());
        assertEquals("File cold is archived in GLACIER; restore it in S3 first, then ask again.",
                Events.body(data).path("message").asText());
        assertEquals(200, metadata.getStatusCode(), metadata.getBody());
    }

    @Test
    void dynamoDbOutOfReachIs503NotABadRequest() {
        // a client of a port nobody listens on, without retries
        DynamoDbClient unreachable = Emulators.clientsFor(URI.create("http://127.0.0.1:9")).build(DynamoDbClient.builder(),
                o -> o.retryStrategy(DefaultRetryStrategy.doNotRetry()).apiCallTimeout(Duration.ofSeconds(5)));
        QueryHandler down = new QueryHandler(QueryApi.forAws(tables.config(false),
                new QueryClients(unreachable, tables.queryAws().s3(), tables.presigner())).log(JsonLog.discarding(QueryApi.LOGGER))
                .build());

        APIGatewayV2HTTPResponse response;
        try {
            response = down.handleRequest(Events.get("/v0/archive/files/", "what=syslog&work_id=job-a"), Events.QUIET);
        } finally {
            unreachable.close();
        }

        assertEquals(503, response.getStatusCode());
        assertEquals("ServiceUnavailable", Events.body(response).path("code").asText());
    }

    @Test
    void everyFileOfAWorkIdOnceEvenWhenItSpansManyBuckets() {
        Map<String, Integer> buckets = new HashMap<>();
        files.stream().filter(m -> "job-c".equals(m.workId()) && m.what().equals("syslog"))
                .forEach(m -> buckets.put(m.id(), (int) datalake.records.TimeBuckets.count(m.start(), m.endOrStart())));

        List<String> got = allIds("what=syslog&work_id=job-c", new ArrayList<>());

        assertTrue(buckets.values().stream().anyMatch(n -> n >= 3));
        assertExactlyOnce(buckets.keySet(), got);
    }
}
