package datalake.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import datalake.records.DatalakeJson;
import datalake.records.Metadata;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The sample requests in events/query (for {@code sam local invoke QueryFunction -e ...}) are the
 * events API Gateway sends; each gets the answer its route promises.
 */
class InvocationEventsTest {
    private static final long START = 1_715_679_064_000L;  // 2024-05-14T09:31:04Z
    private static final Metadata FILE = new Metadata(START, START + 60_000, "/data/readings.csv", "calibration-7",
            "sensor-1", "readings", "6309e115c2914d0f8622973422626954", "a3e75ee4f45f676422e038f2c116d000");

    @ParameterizedTest
    @CsvSource({
        "files-time.json, 200, \"records\":[{",
        "files-time-iso.json, 200, \"records\":[{",
        "files-work-id.json, 200, \"records\":[{",
        "latest.json, 200, \"http_url\":\"https://abc123.execute-api.us-east-1.amazonaws.com/v0/archive/files/",
        "latest-data.json, 302, ''",
        "file-metadata.json, 200, \"start_iso\":\"2024-05-14T09:31:04.000Z\"",
        "file-data.json, 302, ''",
        "archive.json, 200, \"storage_url\":\"s3://datalake-example\"",
        "environment.json, 200, \"version\"",
        "bad-time.json, 400, \"code\":\"InvalidTime\"",
        "no-such-file.json, 404, \"code\":\"NoSuchFile\"",
        "feeds.json, 200, \"feeds\":[{\"what\":\"readings\",\"where\":\"sensor-1\"",
        "coverage.json, 200, \"files\":1",
    })
    void eachSampleGetsTheAnswerOfItsRoute(String sample, int status, String inBody) {
        List<Record> records = new RecordFactory().records(FILE, "s3://datalake-example/" + FILE.id() + "/data", START + 5, 42);
        InMemoryRecordsTable table = new InMemoryRecordsTable().put(records);
        FakeObjectStore files = new FakeObjectStore().put("datalake-example", FILE.id() + "/data",
                Map.of("datalake", DatalakeJson.toJson(FILE)));
        QueryApi api = QueryApi.builder().config(QueryConfig.of("datalake-records", "datalake-example")).records(table)
                .latest(new InMemoryLatestTable().put(records.get(0))).files(files).clock(Clock.fixed(Instant.ofEpochMilli(START + 3_600_000), ZoneOffset.UTC)).build();
        APIGatewayV2HTTPEvent event = EventLoader.loadApiGatewayHttpEvent("events/" + sample);

        APIGatewayV2HTTPResponse response = new QueryHandler(api).handleRequest(event, Events.QUIET);

        assertEquals(status, response.getStatusCode(), sample + ": " + response.getBody());
        if (status == 302) {
            assertTrue(response.getHeaders().get("location").contains(FILE.id() + "/data"), sample);
        } else {
            assertTrue(response.getBody().contains(inBody), sample + ": " + response.getBody());
        }
    }
}
