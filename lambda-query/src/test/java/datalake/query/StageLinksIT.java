package datalake.query;

import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.emulators.HttpApiServer;
import datalake.records.DatalakeJson;
import datalake.records.Metadata;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * {@code next} and {@code http_url} behind API Gateway's {@code $default} stage, behind a named stage
 * (whose name is the first segment of the invoke URL's path, and of the event's {@code rawPath}), and
 * with {@code DATALAKE_HTTP_URL} set; and that a client following them reaches the API again.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(EmulatorsExtension.class)
class StageLinksIT {
    static final Emulators AWS = Emulators.shared();
    private static final String API_HOST = "https://abc123.execute-api.us-east-1.amazonaws.com";
    private static final String QUERY = "what=bulk&start=" + T0 + "&end=" + (T0 + 3 * DAY);
    private static final Metadata STORED = TestFiles.file("stored-file", "bulk", "h", T0 + DAY, null);

    @TempDir
    static Path work;
    private QueryHarness tables;

    @BeforeAll
    void writeFiles() {
        // 150 files, so that the first page has a next; one of them has its object in moto
        tables = QueryHarness.create(AWS, "stage-links-it");
        List<Metadata> files = new ArrayList<>();
        for (int i = 0; i < 149; i++) {
            files.add(TestFiles.file(String.format("bulk-%03d", i), "bulk", "h", T0 + i * (2 * DAY / 149), null));
        }
        files.add(STORED);
        tables.write(files);
        AWS.s3().createBucket(r -> r.bucket(tables.stack().bucket()));
        AWS.s3().putObject(r -> r.bucket(tables.stack().bucket()).key(STORED.id() + "/data")
                .metadata(Map.of("datalake", DatalakeJson.toJson(STORED))), RequestBody.fromString("stored content\n"));
    }

    /**
     * The handler as API Gateway invokes it for a stage: on {@code $default} the path is the API's own,
     * on a named stage it begins with {@code /<stage>}. Following next and http_url means requesting the
     * path of their URL as it is, with the same stage.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "$default||" + API_HOST,
            "prod||" + API_HOST + "/prod",
            "prod|https://datalake.example.com/lake/|https://datalake.example.com/lake",
            "$default|https://datalake.example.com|https://datalake.example.com"})
    void linksStartWithTheStageOrTheConfiguredUrlAndTheStagePathRoutes(String stage, String httpUrl, String base) {
        QueryHandler handler = tables.handler(tables.config(false).withHttpUrl(httpUrl));
        String stagePath = stage.equals("$default") ? "" : "/" + stage;

        // when a client asks for the first page on that stage
        APIGatewayV2HTTPResponse first = handler.handleRequest(Events.request("GET", stagePath + "/v0/archive/files/",
                QUERY, stage), Events.QUIET);

        // then its links start with the base URL, stage included
        assertEquals(200, first.getStatusCode(), first.getBody());
        JsonNode page = Events.body(first);
        String next = page.path("next").asText();
        assertTrue(next.startsWith(base + "/v0/archive/files/?"), next);
        List<String> ids = new ArrayList<>();
        for (JsonNode record : page.path("records")) {
            String id = record.path("metadata").path("id").asText();
            ids.add(id);
            assertEquals(base + "/v0/archive/files/" + id + "/data", record.path("http_url").asText());
        }

        // and, where the base URL is this stage's invoke URL, the paths of the links route
        if (httpUrl == null) {
            URI nextUri = URI.create(next);
            APIGatewayV2HTTPResponse second = handler.handleRequest(Events.request("GET", nextUri.getRawPath(),
                    nextUri.getRawQuery(), stage), Events.QUIET);
            assertEquals(200, second.getStatusCode(), second.getBody());
            Events.body(second).path("records").forEach(r -> ids.add(r.path("metadata").path("id").asText()));
            assertTrue(Events.body(second).path("next").isNull());
            URI data = URI.create(base + "/v0/archive/files/" + STORED.id() + "/data");
            APIGatewayV2HTTPResponse redirect = handler.handleRequest(Events.request("GET", data.getRawPath(), null,
                    stage), Events.QUIET);
            assertEquals(302, redirect.getStatusCode(), redirect.getBody());
            assertEquals(150, new HashSet<>(ids).size());
        }
    }

    /**
     * The real client behind a named stage: the server answers only paths under {@code /prod}, as API
     * Gateway does for a stage {@code prod}, so every link the client follows must carry the stage.
     * With {@code DATALAKE_HTTP_URL} the links use the configured URL (here another spelling of the
     * server's host, {@code localhost}), not the request's Host header ({@code 127.0.0.1}).
     */
    @ParameterizedTest
    @CsvSource({"false", "true"})
    void theClientBehindANamedStageFollowsNextAndHttpUrl(boolean configured) {
        AtomicReference<QueryHandler> handler = new AtomicReference<>();
        try (HttpApiServer server = HttpApiServer.start(namedStage("prod", handler), 0)) {
            String base = (configured ? "http://localhost:" + server.port() : server.url().toString()) + "/prod";
            handler.set(tables.handler(tables.config(false).withHttpUrl(configured ? base : null)));
            DatalakeClient client = new DatalakeClient(URI.create(server.url() + "/prod"),
                    "s3://" + tables.stack().bucket(), AWS.motoEndpoint(), Emulators.ACCESS_KEY_ID,
                    Emulators.SECRET_ACCESS_KEY);

            DatalakeClient.Result list = client.run(work, "list", "bulk", "--start", Long.toString(T0),
                    "--end", Long.toString(T0 + 3 * DAY), "--format", "http");
            // the client fetches only URLs under its own DATALAKE_HTTP_URL
            DatalakeClient.Result cat = client.run(work, "cat", server.url() + "/prod/v0/archive/files/" + STORED.id()
                    + "/data");

            assertEquals(0, list.exitCode(), list.stderr());
            assertEquals(150, new HashSet<>(list.lines()).size(), list.stdout());
            assertTrue(list.lines().stream().allMatch(url -> url.startsWith(base + "/v0/archive/files/")),
                    list.stdout());
            assertEquals(0, cat.exitCode(), cat.stderr());
            assertEquals("stored content", cat.stdout().strip());
        }
    }

    /** API Gateway's stage {@code stage}: paths outside {@code /<stage>} never reach the function. */
    private static RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> namedStage(String stage,
            AtomicReference<QueryHandler> handler) {
        return (event, context) -> {
            if (!event.getRawPath().startsWith("/" + stage + "/")) {
                return APIGatewayV2HTTPResponse.builder().withStatusCode(404)
                        .withHeaders(Map.of("content-type", "application/json"))
                        .withBody("{\"message\":\"Not Found\"}").build();
            }
            event.getRequestContext().setStage(stage);
            return handler.get().handleRequest(event, Events.QUIET);
        };
    }
}
