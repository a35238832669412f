package datalake.query;

import static datalake.query.Events.body;
import static datalake.query.Events.get;
import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;
import static datalake.query.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import datalake.records.Keys.TimeIndexKey;
import datalake.lambda.JsonLog;
import datalake.records.DatalakeJson;
import datalake.records.Metadata;
import datalake.records.MetadataParser;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;

class QueryApiTest {
    private static final String HOST = "https://abc123.execute-api.us-east-1.amazonaws.com";
    private static final long NOW = T0 + 40 * DAY;
    private static final QueryConfig CONFIG = QueryConfig.of("records", "lake");
    private final InMemoryRecordsTable table = new InMemoryRecordsTable();
    private final FakeObjectStore store = new FakeObjectStore();
    private final QueryApi api = api(table, CONFIG);

    private QueryApi api(RecordsTable records, QueryConfig config) {
        return api(records, config, JsonLog.discarding(QueryApi.LOGGER));
    }

    private QueryApi api(RecordsTable records, QueryConfig config, JsonLog log) {
        return QueryApi.builder().config(config).records(records).files(store)
                .clock(Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC)).log(log).build();
    }

    private static void assertError(APIGatewayV2HTTPResponse response, int status, String code) {
        assertEquals(status, response.getStatusCode(), response.getBody());
        JsonNode error = body(response);
        assertEquals(code, error.path("code").asText());
        String message = error.path("message").asText();
        assertTrue(message.endsWith(".") && !message.contains("Exception") && !message.contains("\tat "), message);
        assertEquals("application/json", response.getHeaders().get("content-type"));
    }

    @Test
    void archiveReportsTheStorageUrl() {
        APIGatewayV2HTTPResponse response = api.handle(get("/v0/archive/", ""));

        assertEquals(200, response.getStatusCode());
        assertEquals("s3://lake", body(response).path("storage_url").asText());
    }

    @Test
    void environmentReportsTheBuildVersion() {
        JsonNode env = body(api.handle(get("/v0/environment/", "")));

        assertFalse(env.path("data").path("build").path("version").asText().isEmpty());
    }

    @Test
    void aTimeQueryAnswersV0RecordsWithHttpUrlAndIsoTimes() {
        table.put(TestFiles.records(file("instant", "syslog", "web", T0 + 1000, null)));
        table.put(TestFiles.records(file("span", "syslog", "web", T0 + 2000, T0 + DAY + 5)));

        JsonNode page = body(api.handle(get("/v0/archive/files/", "what=syslog&start=" + T0 + "&end=" + (T0 + 3 * DAY))));

        assertTrue(page.path("next").isNull());
        assertEquals(2, page.path("records").size());
        JsonNode instant = page.path("records").get(0);
        assertEquals("s3://bucket/instant/data", instant.path("url").asText());
        assertEquals(HOST + "/v0/archive/files/instant/data", instant.path("http_url").asText());
        assertEquals(1000, instant.path("create_time").asLong());
        assertEquals(42, instant.path("size").asLong());
        JsonNode m = instant.path("metadata");
        assertEquals("2024-01-01T00:00:01.000Z", m.path("start_iso").asText());
        assertTrue(m.path("end").isNull() && m.path("end_iso").isNull() && m.path("work_id").isNull());
        assertEquals(0, m.path("version").asInt());
        JsonNode span = page.path("records").get(1).path("metadata");
        assertEquals("2024-01-02T00:00:00.005Z", span.path("end_iso").asText());
    }

    @Test
    void fieldsBeyondTheNineAreServedForARecordThisIngesterWrote() {
        // given a file whose header has fields beyond the nine, indexed as the ingester writes it
        String header = DatalakeJson.toJson(file("extras", "syslog", "web", T0 + 1000, null));
        Metadata m = MetadataParser.parse(header.substring(0, header.length() - 1)
                + ",\"data-version\":\"3\",\"tags\":[\"a\",2.5,true,null],\"quality\":{\"by\":\"qa\"}}");
        table.put(TestFiles.records(m));

        // when a time query and the latest route answer
        JsonNode page = body(api.handle(get("/v0/archive/files/", "what=syslog&start=" + T0 + "&end=" + (T0 + DAY))));
        JsonNode latest = body(api.handle(get("/v0/archive/latest/syslog/web", "lookback=60")));

        // then the metadata carries them, typed as the producer wrote them
        for (JsonNode metadata : List.of(page.path("records").get(0).path("metadata"), latest.path("metadata"))) {
            assertEquals("3", metadata.path("data-version").textValue(), metadata.toString());
            assertEquals("[\"a\",2.5,true,null]", metadata.path("tags").toString());
            assertEquals("qa", metadata.path("quality").path("by").textValue());
            assertEquals("2024-01-01T00:00:01.000Z", metadata.path("start_iso").textValue());
        }
    }

    @Test
    void nextIsAnAbsoluteUrlThatWalksEveryFileOnce() {
        // given 250 files over three days
        List<Metadata> files = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            files.add(file(String.format("f%03d", i), "syslog", "web", T0 + i * (3 * DAY / 250), null));
        }
        table.put(TestFiles.records(files));

        // when the client follows next from the first page
        Set<String> ids = new HashSet<>();
        int count = 0;
        int pages = 0;
        String url = HOST + "/v0/archive/files/?what=syslog&start=2024-01-01&end=" + (T0 + 3 * DAY);
        while (url != null) {
            URI uri = URI.create(url);
            assertEquals(HOST, uri.getScheme() + "://" + uri.getHost());
            JsonNode page = body(api.handle(get(uri.getRawPath(), uri.getRawQuery())));
            for (JsonNode record : page.path("records")) {
                ids.add(record.path("metadata").path("id").asText());
                count++;
            }
            pages++;
            url = page.path("next").isNull() ? null : page.path("next").asText();
        }

        // then every file came once, in pages of at most 100
        assertEquals(250, count);
        assertEquals(250, ids.size());
        assertEquals(3, pages);
    }

    @Test
    void nowIsTheRequestsTimeAndNextCarriesItAsATime() {
        // given 101 files over the last two days, and one an hour ahead
        List<Metadata> files = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            files.add(file(String.format("f%03d", i), "syslog", "web", NOW - 2 * DAY + i * (2 * DAY / 101), null));
        }
        files.add(file("ahead", "syslog", "web", NOW + DAY / 24, null));
        table.put(TestFiles.records(files));

        // when the files up to now are asked, and the next page a minute later
        APIGatewayV2HTTPResponse first = api.handle(get("/v0/archive/files/", "what=syslog&start=" + (NOW - 3 * DAY)
                + "&end=now"));
        URI next = URI.create(body(first).path("next").asText());
        QueryApi aMinuteLater = QueryApi.builder().config(CONFIG).records(table).files(store)
                .clock(Clock.fixed(Instant.ofEpochMilli(NOW + 60_000), ZoneOffset.UTC)).build();
        APIGatewayV2HTTPResponse second = aMinuteLater.handle(get(next.getRawPath(), next.getRawQuery()));

        // then both pages hold the files until the first request's now, the next link its time
        assertEquals(200, first.getStatusCode(), first.getBody());
        assertEquals(100, body(first).path("records").size());
        assertTrue(next.getRawQuery().contains("&end=" + Links.encode("2024-02-10T00:00:00.000Z") + "&"), next.toString());
        assertEquals(200, second.getStatusCode(), second.getBody());
        assertEquals(List.of("f100"), body(second).path("records").findValuesAsText("id"));
        assertTrue(body(second).path("next").isNull());
    }

    @Test
    void linksKeepANamedStageOrUseTheConfiguredUrl() {
        table.put(TestFiles.records(file("a", "syslog", "web", T0, null)));

        JsonNode staged = body(api.handle(Events.request("GET", "/prod/v0/archive/files/",
                "what=syslog&start=" + T0 + "&end=" + T0, "prod")));
        JsonNode configured = body(api(table, CONFIG.withHttpUrl("https://datalake.example.com/api/")).handle(
                get("/v0/archive/files/", "what=syslog&start=" + T0 + "&end=" + T0)));

        assertEquals(HOST + "/prod/v0/archive/files/a/data", staged.path("records").get(0).path("http_url").asText());
        assertEquals("https://datalake.example.com/api/v0/archive/files/a/data",
                configured.path("records").get(0).path("http_url").asText());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''|NoArgs",
            "where=web|NoWhat",
            "what=syslog|NoWorkInterval",
            "what=syslog&work_id=j&start=1|InvalidWorkInterval",
            "what=syslog&start=1|InvalidWorkInterval",
            "what=syslog&start=2000000000000&end=1000000000000|InvalidWorkInterval",
            "what=syslog&start=today&end=1|InvalidTime",
            "what=syslog&start=1&end=%ZZ|InvalidTime",
            "what=syslog&start=1&end=2&cursor=abc|InvalidCursor",
            "what=syslog&work_id=j&cursor=%00|InvalidCursor"})
    void everyMisuseOfFilesIsItsV0Code(String query, String code) {
        assertError(api.handle(get("/v0/archive/files/", query)), 400, code);
    }

    @ParameterizedTest
    @CsvSource({"abc", "-1", "1.5", "3661", "99999999999", "''"})
    void aBadLookbackIsInvalidLookback(String lookback) {
        String query = lookback.isEmpty() ? "lookback=%20" : "lookback=" + lookback;
        assertError(api.handle(get("/v0/archive/latest/syslog/web", query)), 400, "InvalidLookback");
    }

    @Test
    void unknownRoutesAre404AndOtherMethods405() {
        assertError(api.handle(get("/v0/archive/nope", "")), 404, "NoSuchRoute");
        assertError(api.handle(get("/", "")), 404, "NoSuchRoute");
        assertError(api.handle(get("/v0/archive/files/a/b/c", "")), 404, "NoSuchRoute");
        assertError(api.handle(get("/v0//archive/", "")), 404, "NoSuchRoute");

        APIGatewayV2HTTPResponse post = api.handle(Events.request("POST", "/v0/archive/files/", "", "$default"));
        assertError(post, 405, "MethodNotAllowed");
        assertEquals("GET", post.getHeaders().get("allow"));
    }

    @Test
    void fileMetadataComesFromTheObjectsUserMetadataWithIsoTimes() {
        Metadata m = file("abc", "syslog", "web", T0, T0 + 1500L, "job");
        store.put("lake", "abc/data", Map.of("datalake", DatalakeJson.toJson(m)));

        APIGatewayV2HTTPResponse response = api.handle(get("/v0/archive/files/abc/metadata", ""));

        assertEquals(200, response.getStatusCode());
        JsonNode metadata = body(response);
        assertEquals("job", metadata.path("work_id").asText());
        assertEquals(T0, metadata.path("start").asLong());
        assertEquals("2024-01-01T00:00:00.000Z", metadata.path("start_iso").asText());
        assertEquals("2024-01-01T00:00:01.500Z", metadata.path("end_iso").asText());
    }

    @Test
    void fileDataRedirectsToAPresignedLinkValidFifteenMinutes() {
        store.put("lake", "abc/data", Map.of("datalake", DatalakeJson.toJson(file("abc", "s", "w", T0, null))));

        APIGatewayV2HTTPResponse response = api.handle(get("/v0/archive/files/abc/data", ""));

        assertEquals(302, response.getStatusCode());
        assertEquals("https://lake.s3.example/abc/data?X-Amz-Expires=900&response-content-type=text%2Fplain",
                response.getHeaders().get("location"));
    }

    @Test
    void missingOrForeignFilesAreNoSuchFile() {
        store.put("lake", "plain/data", Map.of());
        store.put("lake", "broken/data", Map.of("datalake", "{\"version\": 0}"));

        assertError(api.handle(get("/v0/archive/files/missing/metadata", "")), 404, "NoSuchFile");
        assertError(api.handle(get("/v0/archive/files/missing/data", "")), 404, "NoSuchFile");
        assertError(api.handle(get("/v0/archive/files/plain/metadata", "")), 404, "NoSuchFile");
        assertError(api.handle(get("/v0/archive/files/broken/metadata", "")), 404, "NoSuchFile");
        assertError(api.handle(get("/v0/archive/files/plain/data", "")), 404, "NoSuchFile");
        assertError(api.handle(get("/v0/archive/files/broken/data", "")), 404, "NoSuchFile");
        assertError(api.handle(get("/v0/archive/files/a%3Ab/data", "")), 404, "NoSuchFile");
        assertError(api.handle(get("/v0/archive/files/a%2Fb/data", "")), 404, "NoSuchFile");
        assertError(api.handle(get("/v0/archive/files/" + "x".repeat(129) + "/data", "")), 404, "NoSuchFile");
    }

    @Test
    void anObjectHoldingAnotherFilesMetadataIsNoSuchFileOnEveryRouteThatReadsIt() {
        // given file abc copied under the key of file copy, an object whose metadata names no id, and the
        // latest syslog file's object overwritten by another file
        Metadata abc = file("abc", "syslog", "web", NOW - DAY, null);
        store.put("lake", "abc/data", Map.of("datalake", DatalakeJson.toJson(abc)));
        store.put("lake", "copy/data", Map.of("datalake", DatalakeJson.toJson(abc)));
        store.put("lake", "anon/data", Map.of("datalake", "{\"start\": " + T0 + ", \"what\": \"syslog\"}"));
        table.put(TestFiles.records(file("new", "syslog", "web", NOW - DAY, null)));
        store.put("bucket", "new/data",
                Map.of("datalake", DatalakeJson.toJson(file("other", "syslog", "web", NOW, null))));

        // then neither is the file its key names, and the latest file's data are gone
        APIGatewayV2HTTPResponse copy = api.handle(get("/v0/archive/files/copy/metadata", ""));
        assertError(copy, 404, "NoSuchFile");
        assertEquals("The object of file copy holds the metadata of file abc, so there is no file copy.",
                body(copy).path("message").asText());
        assertError(api.handle(get("/v0/archive/files/copy/data", "")), 404, "NoSuchFile");
        assertError(api.handle(get("/v0/archive/files/anon/metadata", "")), 404, "NoSuchFile");
        assertError(api.handle(get("/v0/archive/files/anon/data", "")), 404, "NoSuchFile");
        APIGatewayV2HTTPResponse latest = api.handle(get("/v0/archive/latest/syslog/web/data", ""));
        assertError(latest, 404, "NoSuchFile");
        assertEquals("The latest syslog file from web was overwritten in its bucket by another file, so its data"
                + " are gone.", body(latest).path("message").asText());
        // while the file itself is served, and the latest record as the index holds it
        assertEquals("abc", body(api.handle(get("/v0/archive/files/abc/metadata", ""))).path("id").asText());
        assertEquals(302, api.handle(get("/v0/archive/files/abc/data", "")).getStatusCode());
        assertEquals(200, api.handle(get("/v0/archive/latest/syslog/web", "")).getStatusCode());
    }

    @Test
    void theDataOfAnArchivedFileIs409FileArchivedNamingItsStorageClass() {
        Metadata m = file("cold", "syslog", "web", NOW - DAY, null);
        table.put(TestFiles.records(m));
        store.put("lake", "cold/data", Map.of("datalake", DatalakeJson.toJson(m))).archive("lake", "cold/data", "GLACIER");
        store.put("bucket", "cold/data", Map.of("datalake", DatalakeJson.toJson(m))).archive("bucket", "cold/data",
                "DEEP_ARCHIVE");
        store.put("lake", "foreign/data", Map.of()).archive("lake", "foreign/data", "GLACIER");

        APIGatewayV2HTTPResponse data = api.handle(get("/v0/archive/files/cold/data", ""));
        APIGatewayV2HTTPResponse latest = api.handle(get("/v0/archive/latest/syslog/web/data", ""));

        assertError(data, 409, "FileArchived");
        assertEquals("File cold is archived in GLACIER; restore it in S3 first, then ask again.",
                body(data).path("message").asText());
        assertError(latest, 409, "FileArchived");
        assertTrue(body(latest).path("message").asText().contains("archived in DEEP_ARCHIVE"), latest.getBody());
        assertEquals(200, api.handle(get("/v0/archive/files/cold/metadata", "")).getStatusCode());
        assertError(api.handle(get("/v0/archive/files/foreign/data", "")), 404, "NoSuchFile");
    }

    @Test
    void latestAnswersTheRecordAndItsDataRedirects() {
        table.put(TestFiles.records(file("old", "syslog", "web", NOW - 3 * DAY, null)));
        Metadata newest = file("new", "syslog", "web", NOW - DAY, null);
        table.put(TestFiles.records(newest));
        store.put("bucket", "new/data", Map.of("datalake", DatalakeJson.toJson(newest)));

        APIGatewayV2HTTPResponse latest = api.handle(get("/v0/archive/latest/syslog/web", ""));
        APIGatewayV2HTTPResponse data = api.handle(get("/v0/archive/latest/syslog/web/data", "lookback=2"));

        assertEquals(200, latest.getStatusCode());
        assertEquals("new", body(latest).path("metadata").path("id").asText());
        assertEquals(HOST + "/v0/archive/files/new/data", body(latest).path("http_url").asText());
        assertEquals(302, data.getStatusCode());
        assertEquals("https://bucket.s3.example/new/data?X-Amz-Expires=900&response-content-type=text%2Fplain",
                data.getHeaders().get("location"));
    }

    @Test
    void latestDataOfAnObjectOverwrittenByOneWithoutDatalakeMetadataIsNoSuchFile() {
        table.put(TestFiles.records(file("new", "syslog", "web", NOW - DAY, null)));
        store.put("bucket", "new/data", Map.of("owner", "another application"));

        assertError(api.handle(get("/v0/archive/latest/syslog/web/data", "")), 404, "NoSuchFile");
    }

    @Test
    void noLatestFileIsNoSuchFile() {
        table.put(TestFiles.records(file("old", "syslog", "web", NOW - 3 * DAY, null)));

        assertError(api.handle(get("/v0/archive/latest/syslog/web", "lookback=2")), 404, "NoSuchFile");
        assertError(api.handle(get("/v0/archive/latest/syslog/db", "")), 404, "NoSuchFile");
        assertError(api.handle(get("/v0/archive/latest/SYS%20LOG/web/data", "")), 404, "NoSuchFile");
    }

    @Test
    void whatOrWhereNoFileCanHaveIsAnEmptyAnswer() {
        JsonNode page = body(api.handle(get("/v0/archive/files/", "what=Sys:log&where=" + "w".repeat(600)
                + "&start=1&end=2")));

        assertEquals(0, page.path("records").size());
        assertTrue(page.path("next").isNull());
    }

    @Test
    void storageFailuresAre503AndOtherFaults500WithoutDetails() {
        RecordsTable down = failing(SdkClientException.create("connection refused"));
        RecordsTable refused = failing(AwsServiceException.builder().message("AccessDenied").statusCode(400).build());
        RecordsTable broken = failing(new IllegalStateException("bug"));
        String query = "what=syslog&start=1&end=2";

        List<String> lines = new ArrayList<>();
        JsonLog log = new JsonLog(QueryApi.LOGGER, lines::add, Clock.systemUTC());
        assertError(api(down, CONFIG, log).handle(get("/v0/archive/files/", query)), 503, "ServiceUnavailable");
        assertError(api(refused, CONFIG, log).handle(get("/v0/archive/files/", query)), 500, "InternalError");
        assertError(api(broken, CONFIG, log).handle(get("/v0/archive/files/", query)), 500, "InternalError");

        // the details go to the function's log instead
        String logged = String.join("\n", lines);
        assertTrue(logged.contains("connection refused") && logged.contains("AccessDenied")
                && logged.contains("IllegalStateException: bug"), logged);
    }

    @Test
    void badInputNeverYieldsAServerError() {
        String[][] requests = {
                {"/v0/archive/files/", "what=%&start=%%&end=%E2%82"},
                {"/v0/archive/files/", "what=a&start=-1e300&end=1e300"},
                {"/v0/archive/files/", "what=a&start=0&end=253402300799999"},
                {"/v0/archive/files/", "what=a&start=-62135596800000&end=253402300799999"},
                {"/v0/archive/files/", "what=a&work_id=" + "x".repeat(5000)},
                {"/v0/archive/files/", "what=a&work_id=b&cursor=" + "A".repeat(5000)},
                {"/v0/archive/files/", "what=a&&&=&start=1&end=2&start=3"},
                {"/v0/archive/latest/%/%", "lookback=0"},
                {"/v0/archive/latest/a/b", "lookback=3660"},
                {"/v0/archive/files/%E2%82/metadata", ""},
                {"/v0/archive/files/..%2F../data", ""},
                {"/%%%/", ""},
        };
        for (String[] request : requests) {
            APIGatewayV2HTTPResponse response = api.handle(get(request[0], request[1]));
            assertTrue(response.getStatusCode() < 500, request[0] + "?" + request[1] + " → " + response.getBody());
        }
    }

    private static RecordsTable failing(RuntimeException failure) {
        return new RecordsTable() {
            @Override
            public Slice queryKey(TimeIndexKey key, String rangePrefix, String after, int limit) {
                throw failure;
            }

            @Override
            public Slice queryWorkId(String workId, String what, String rangePrefix, String after, int limit) {
                throw failure;
            }
        };
    }
}
