package datalake.query;

import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.records.Keys.TimeIndexKey;
import datalake.lambda.JsonLog;
import datalake.records.DatalakeJson;
import datalake.records.Metadata;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The query function's logs (standard output and error, as Lambda collects them) carry no metadata
 * values beyond identifiers and no caller-supplied query values, and every line is one JSON document,
 * so a newline or quote in a request cannot forge a line.
 */
class QueryLogSafetyTest {
    private static final String PATH = "/srv/secret-path-7f3a/data.bin";
    private static final String HASH = "feedfacecafebeef0123456789abcdef";
    private static final String WORK_ID = "secret-work-9c1d";

    @Test
    void logLinesAreJsonAndCarryNoMetadataValuesNorQueryValues() throws Exception {
        // given a file with distinctive path, hash and work id, and a table that fails on one query
        Metadata m = new Metadata(T0, T0 + 1000L, PATH, WORK_ID, "web", "syslog", "f1", HASH);
        InMemoryRecordsTable table = new InMemoryRecordsTable();
        table.put(TestFiles.records(m));
        FakeObjectStore store = new FakeObjectStore().put("lake", "f1/data", Map.of("datalake", DatalakeJson.toJson(m)));
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8);
        JsonLog log = new JsonLog(QueryApi.LOGGER, capture::println, Clock.systemUTC());
        QueryHandler handler = new QueryHandler(QueryApi.builder().config(QueryConfig.of("records", "lake"))
                .records(table).files(store).clock(Clock.fixed(Instant.ofEpochMilli(T0 + DAY), ZoneOffset.UTC))
                .log(log).build());
        RecordsTable failing = new RecordsTable() {
            @Override
            public Slice queryKey(TimeIndexKey key, String rangePrefix, String after, int limit) {
                throw new IllegalStateException("defect\n{\"level\":\"INFO\",\"forged\":true}");
            }

            @Override
            public Slice queryWorkId(String workId, String what, String rangePrefix, String after, int limit) {
                throw new IllegalStateException("defect");
            }
        };
        QueryHandler broken = new QueryHandler(QueryApi.builder().config(QueryConfig.of("records", "lake"))
                .records(failing).files(store).log(log).build());

        // when requests, some carrying newlines, quotes and the secret values, are answered
        // (the function's log goes to the capture; so does anything else written to standard output or error)
        PrintStream out = System.out;
        PrintStream err = System.err;
        System.setOut(capture);
        System.setErr(capture);
        try {
            for (APIGatewayV2HTTPEvent event : List.of(
                    Events.get("/v0/archive/files/", "what=syslog&work_id=" + WORK_ID),
                    Events.get("/v0/archive/files/", "what=syslog&start=" + T0 + "&end=" + (T0 + DAY)),
                    Events.get("/v0/archive/files/f1/metadata", ""),
                    Events.get("/v0/archive/latest/syslog/web", ""),
                    Events.get("/v0/archive/files/", "what=syslog&start=" + PATH + "&end=1"),
                    Events.get("/v0/archive/x\n{\"forged\":\"line\"}", "a=\"\n"),
                    Events.request("POST\n{\"forged\":1}", "/v0/archive/", "", "$default"))) {
                handler.handleRequest(event, null);
            }
            broken.handleRequest(Events.get("/v0/archive/files/", "what=syslog&start=1&end=2"), null);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }

        // then every line is a JSON object, and no secret value appears
        String logs = captured.toString(StandardCharsets.UTF_8);
        ObjectMapper json = new ObjectMapper();
        List<String> lines = logs.lines().toList();
        assertTrue(lines.size() >= 9, logs);
        for (String line : lines) {
            assertTrue(json.readTree(line).isObject(), line);
            assertFalse(json.readTree(line).has("forged"), line);
        }
        for (String secret : List.of(HASH, WORK_ID, "secret-path-7f3a")) {
            assertFalse(logs.contains(secret), secret + " in\n" + logs);
        }
    }
}
