package datalake.query;

import static datalake.query.Events.body;
import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;
import static datalake.query.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import datalake.records.Metadata;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every parameter of the API wrong in every way we could think of (missing, empty, unparsable, out of
 * range, enormous, unicode, injection-looking, tampered or foreign cursors, odd paths and methods):
 * each answer is the expected 4xx with a JSON {@code code} and a one-sentence message, never a 5xx.
 * Requests that are odd but well formed (a what no file can have) answer 200 with no records.
 */
class MalformedRequestsTest {
    private static final String FILES = "/v0/archive/files/";
    private static final String LONG = "x".repeat(10_000);
    private static final String TIME = "what=syslog&where=web&start=" + T0 + "&end=" + (T0 + 3 * DAY);
    private static final Set<String> CODES = Set.of("NoArgs", "NoWhat", "NoWorkInterval", "InvalidWorkInterval",
            "InvalidTime", "InvalidCursor", "InvalidLookback", "NoSuchFile", "NoSuchRoute", "MethodNotAllowed");
    private static final QueryApi API;
    /** The cursor of the second page of {@link #TIME}, as the API wrote it. */
    private static final String CURSOR;

    static {
        InMemoryRecordsTable table = new InMemoryRecordsTable();
        List<Metadata> files = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            files.add(file(String.format("f%03d", i), "syslog", "web", T0 + i * (3 * DAY / 150), null, "job-1"));
        }
        table.put(TestFiles.records(files));
        API = QueryApi.builder().config(QueryConfig.of("records", "lake")).records(table).files(new FakeObjectStore())
                .clock(Clock.fixed(Instant.ofEpochMilli(T0 + 2 * DAY), ZoneOffset.UTC)).build();
        String next = body(API.handle(Events.get(FILES, TIME))).path("next").asText();
        String query = URI.create(next).getRawQuery();
        CURSOR = query.substring(query.indexOf("cursor=") + "cursor=".length());
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static Arguments bad(String method, String path, String query, int status, String code) {
        return Arguments.of(method + " " + path + "?" + (query.length() > 80 ? query.substring(0, 80) + "…" : query),
                method, path, query, status, code);
    }

    private static Arguments files(String query, String code) {
        return bad("GET", FILES, query, 400, code);
    }

    static Stream<Arguments> malformed() {
        List<Arguments> cases = new ArrayList<>();
        // no arguments, no what
        cases.add(files("", "NoArgs"));
        cases.add(files("&&&", "NoArgs"));
        for (String q : List.of("where=web", "what=", "what=&start=1&end=2", "start=1&end=2", "WHAT=syslog&start=1&end=2",
                "work_id=job-1", "cursor=" + CURSOR)) {
            cases.add(files(q, "NoWhat"));
        }
        // neither interval nor work id; both; half an interval; start after end
        cases.add(files("what=syslog", "NoWorkInterval"));
        cases.add(files("what=syslog&where=web&start=&end=", "NoWorkInterval"));
        cases.add(files("what=syslog&work_id=", "NoWorkInterval"));
        for (String q : List.of("what=syslog&work_id=j&start=1", "what=syslog&work_id=j&end=1",
                "what=syslog&work_id=j&start=1&end=2", "what=syslog&start=1", "what=syslog&end=1",
                "what=syslog&start=2000000000000&end=1000000000000", "what=syslog&start=2024-01-02&end=2024-01-01")) {
            cases.add(files(q, "InvalidWorkInterval"));
        }
        // times that are no time
        for (String t : List.of("today", "yesterday", "NaN", "Infinity", "-Infinity", "1e400", "-1e400", "0x10",
                "1_000", "1,5", "--1", "1e", ".", "+", " ", "%", "%ZZ", "2024-13-01", "2024-02-30", "2024-01-01T25:00:00Z",
                "10000-01-01T00:00:00Z", "-62135596800001", "253402300800000", "9".repeat(5000), LONG,
                "１２３", "٣٤٥", "1;DROP TABLE records", "' OR '1'='1", "<script>alert(1)</script>", "${jndi:ldap://x/a}",
                "1\n2", "\u0000", "😀")) {
            cases.add(files("what=syslog&start=" + enc(t) + "&end=" + (T0 + DAY), "InvalidTime"));
            cases.add(files("what=syslog&start=" + T0 + "&end=" + enc(t), "InvalidTime"));
        }
        // cursors: tampered, truncated, extended, foreign, garbage
        String flipped = CURSOR.substring(0, 10) + (CURSOR.charAt(10) == 'A' ? 'B' : 'A') + CURSOR.substring(11);
        for (String c : List.of(flipped, CURSOR.substring(0, CURSOR.length() - 1), CURSOR + "A", CURSOR + "=",
                CURSOR + "%00", "A".repeat(CursorCodec.MAX_LENGTH + 1), "not a cursor", "eyJ2IjoxfQ", "😀", "%",
                "' OR 1=1 --", LONG)) {
            cases.add(files(TIME + "&cursor=" + enc(c), "InvalidCursor"));
        }
        // the cursor of TIME for any other query
        for (String other : List.of("what=syslog&where=web&start=" + T0 + "&end=" + (T0 + 3 * DAY + 1),
                "what=syslog&where=db&start=" + T0 + "&end=" + (T0 + 3 * DAY),
                "what=syslog&start=" + T0 + "&end=" + (T0 + 3 * DAY),
                "what=nginx&where=web&start=" + T0 + "&end=" + (T0 + 3 * DAY),
                "what=syslog&where=web&work_id=job-1", "what=syslog&work_id=job-1")) {
            cases.add(files(other + "&cursor=" + CURSOR, "InvalidCursor"));
        }
        // lookbacks
        for (String l : List.of("abc", "-1", "1.5", "1e3", "3661", "99999999999", "%20", "1 OR 1=1", "０", LONG, "😀")) {
            cases.add(bad("GET", "/v0/archive/latest/syslog/web", "lookback=" + enc(l), 400, "InvalidLookback"));
        }
        // files by id that cannot exist
        for (String id : List.of("x".repeat(129), "..", ".", "a%2Fb", "a%5Cb", "a%00b", "a%0Ab", "a:b", "%E2%82",
                "%F0%9F%98%80", "'%20OR%20'1'='1", enc(LONG))) {
            cases.add(bad("GET", "/v0/archive/files/" + id + "/metadata", "", 404, "NoSuchFile"));
            cases.add(bad("GET", "/v0/archive/files/" + id + "/data", "", 404, "NoSuchFile"));
        }
        // latest of a what or where no file has
        for (String w : List.of("Syslog", "sys%20log", "%F0%9F%98%80", enc(LONG), "a:b", "..")) {
            cases.add(bad("GET", "/v0/archive/latest/" + w + "/web", "", 404, "NoSuchFile"));
            cases.add(bad("GET", "/v0/archive/latest/syslog/" + w + "/data", "", 404, "NoSuchFile"));
        }
        // paths that are no route
        for (String p : List.of("/", "", "/v0", "/v1/archive/", "/V0/ARCHIVE/", "//v0/archive/", "/v0//archive/",
                "/v0/archive/files/a/b/c", "/v0/archive/latest/a", "/v0/archive/latest/a/b/c/d", "/v0/archive/%2e%2e/",
                "/v0/archive/files/%2F/metadata/x", "/" + LONG, "/v0/archive/files/../../etc/passwd", "/%%%/",
                "/v0/archive/😀")) {
            cases.add(bad("GET", p, "", 404, "NoSuchRoute"));
        }
        // methods other than GET
        for (String m : List.of("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "G E T", "😀")) {
            cases.add(bad(m, FILES, TIME, 405, "MethodNotAllowed"));
            cases.add(bad(m, "/v0/archive/", "", 405, "MethodNotAllowed"));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} → {4} {5}")
    @MethodSource("malformed")
    void everyMalformedRequestIsA4xxWithItsCode(String name, String method, String path, String query,
            int status, String code) {
        APIGatewayV2HTTPResponse response = API.handle(Events.request(method, path, query, "$default"));

        assertEquals(status, response.getStatusCode(), response.getBody());
        assertEquals("application/json", response.getHeaders().get("content-type"));
        JsonNode error = body(response);
        assertEquals(code, error.path("code").asText(), response.getBody());
        assertTrue(CODES.contains(error.path("code").asText()));
        String message = error.path("message").asText();
        assertTrue(message.endsWith(".") && !message.contains("Exception") && !message.contains("\tat ")
                && message.length() < 400, message);
    }

    static Stream<String> wellFormedButMatchingNothing() {
        return Stream.of("Syslog", "sys log", "😀", "a:b", "' OR '1'='1", "*", "%", LONG, "syslog\n")
                .flatMap(v -> Stream.of(
                        "what=" + enc(v) + "&start=" + T0 + "&end=" + (T0 + DAY),
                        "what=syslog&where=" + enc(v) + "&start=" + T0 + "&end=" + (T0 + DAY),
                        "what=syslog&work_id=" + enc(v)));
    }

    @ParameterizedTest
    @MethodSource("wellFormedButMatchingNothing")
    void aWhatWhereOrWorkIdNoFileCanHaveIsAnEmptyAnswer(String query) {
        APIGatewayV2HTTPResponse response = API.handle(Events.get(FILES, query));

        assertEquals(200, response.getStatusCode(), response.getBody());
        assertEquals(0, body(response).path("records").size());
        assertTrue(body(response).path("next").isNull());
    }
}
