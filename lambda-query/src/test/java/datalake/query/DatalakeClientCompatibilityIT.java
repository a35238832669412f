package datalake.query;

import static datalake.query.TestFiles.DAY;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.emulators.HttpApiServer;
import datalake.records.Metadata;
import datalake.records.MetadataParser;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * The real {@code datalake} client (PyPI, pinned) against our API served over HTTP: it pushes files to
 * moto's S3 itself, they are indexed the way the ingester indexes them, and then its {@code list},
 * {@code latest}, {@code fetch} and {@code cat} commands must work unchanged.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(EmulatorsExtension.class)
class DatalakeClientCompatibilityIT {
        static final Emulators AWS = Emulators.shared();
    private static final byte[] APP_LOG = "first line\nsecond line\n".repeat(50).getBytes(StandardCharsets.UTF_8);
    private static final byte[] REPORT = "{\"files\": 3, \"ok\": true}\n".getBytes(StandardCharsets.UTF_8);
    private static final Pattern PUSHED = Pattern.compile("Pushed (\\S+) to (s3://\\S+/(\\S+)/data)");

    @TempDir
    static Path work;
    private QueryHarness tables;
    private HttpApiServer server;
    private DatalakeClient client;
    private final long now = System.currentTimeMillis();
    /** File name → its s3:// URL as the client reported the push. */
    private final Map<String, String> pushed = new LinkedHashMap<>();
    private final Map<String, String> ids = new LinkedHashMap<>();

    @BeforeAll
    void pushAndIndexFiles() throws IOException {
        tables = QueryHarness.create(AWS, "client-compat");
        AWS.s3().createBucket(r -> r.bucket(tables.stack().bucket()));
        server = HttpApiServer.start(quiet(tables.handler(false)), 0);
        client = new DatalakeClient(server.url(), "s3://" + tables.stack().bucket(), AWS.motoEndpoint(),
                Emulators.ACCESS_KEY_ID, Emulators.SECRET_ACCESS_KEY);

        push("web1-old.log", "syslog", "web-1", "job-1", now - 3 * DAY, now - 3 * DAY + 3_600_000);
        push("web1-new.log", "syslog", "web-1", "job-1", now - DAY, null);
        push("web2-long.log", "syslog", "web-2", null, now - 2 * DAY, now);
        push("nginx.log", "nginx", "web-1", null, now - DAY, null);
        // files whose path names their type and compression, the content gzip or not
        push("app.log.gz", gzip(APP_LOG), "app", "web-1", null, now - 2 * DAY, null);
        push("report.json.gz", gzip(REPORT), "app", "web-2", null, now - 2 * DAY, null);
        push("report.json", REPORT, "app", "web-2", null, now - 3 * DAY, null);
        for (String url : pushed.values()) {
            index(url);
        }
        // 240 more files, indexed without objects, to make the client follow next pages
        List<Record> bulk = new ArrayList<>();
        for (int i = 0; i < 240; i++) {
            Metadata m = TestFiles.file(String.format("bulk-%03d", i), "bulk", "h", now - 5 * DAY + i * (5 * DAY / 240), null);
            bulk.addAll(new RecordFactory().records(m, "s3://" + tables.stack().bucket() + "/" + m.id() + "/data", now, 1));
        }
        tables.writeRecords(bulk);
    }

    @AfterAll
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    /** The handler without its request log lines, which would bury the client's output in the report. */
    private static com.amazonaws.services.lambda.runtime.RequestHandler<
            com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent,
            com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse> quiet(QueryHandler handler) {
        return (event, context) -> handler.handleRequest(event, Events.QUIET);
    }

    private void push(String name, String what, String where, String workId, long start, Long end) throws IOException {
        push(name, ("content of " + name + "\n").getBytes(StandardCharsets.UTF_8), what, where, workId, start, end);
    }

    private void push(String name, byte[] content, String what, String where, String workId, long start, Long end)
            throws IOException {
        Path file = work.resolve(name);
        Files.write(file, content);
        List<String> args = new ArrayList<>(List.of("push", "--what", what, "--where", where, "--start",
                Long.toString(start)));
        if (end != null) {
            args.addAll(List.of("--end", Long.toString(end)));
        }
        if (workId != null) {
            args.addAll(List.of("--work-id", workId));
        }
        args.add(file.toString());
        DatalakeClient.Result result = client.run(work, args.toArray(String[]::new));
        assertEquals(0, result.exitCode(), result.stderr());
        Matcher matcher = PUSHED.matcher(result.stdout());
        assertTrue(matcher.find(), result.stdout());
        pushed.put(name, matcher.group(2));
        ids.put(name, matcher.group(3));
    }

    /** What the ingester does with the object's notification: HEAD, metadata, records, BatchWriteItem. */
    private void index(String s3Url) {
        String key = s3Url.substring(("s3://" + tables.stack().bucket() + "/").length());
        HeadObjectResponse head = AWS.s3().headObject(r -> r.bucket(tables.stack().bucket()).key(key));
        Metadata metadata = MetadataParser.parse(head.metadata().get("datalake"));
        tables.writeRecords(new RecordFactory().records(metadata, s3Url, head.lastModified().toEpochMilli(),
                head.contentLength()));
    }

    private DatalakeClient.Result datalake(String... args) {
        return show(client.run(work, args), args);
    }

    /** Prints the command and (the start of) its output into the test report, for the record. */
    private static DatalakeClient.Result show(DatalakeClient.Result result, String... args) {
        List<String> lines = result.lines();
        StringBuilder out = new StringBuilder("$ datalake ").append(String.join(" ", args)).append('\n');
        lines.stream().limit(4).forEach(line -> out.append(line).append('\n'));
        if (lines.size() > 4) {
            out.append("... (").append(lines.size()).append(" lines)\n");
        }
        if (result.exitCode() != 0) {
            String[] err = result.stderr().strip().split("\\R");
            out.append("[exit ").append(result.exitCode()).append("] ").append(err[err.length - 1]).append('\n');
        }
        System.out.print(out);
        return result;
    }

    private String httpUrl(String name) {
        return server.url() + "/v0/archive/files/" + ids.get(name) + "/data";
    }

    @Test
    void listByTimeRangePrintsTheUrlsOfTheFilesInIt() {
        DatalakeClient.Result result = datalake("list", "syslog", "--start", Long.toString(now - 4 * DAY),
                "--end", Long.toString(now));

        assertEquals(0, result.exitCode(), result.stderr());
        assertEquals(Set.of(pushed.get("web1-old.log"), pushed.get("web1-new.log"), pushed.get("web2-long.log")),
                new HashSet<>(result.lines()));
        assertEquals(3, result.lines().size());
    }

    @Test
    void listForAWhereInHttpFormatPrintsOurDataUrls() {
        DatalakeClient.Result result = datalake("list", "syslog", "--where", "web-1", "--format", "http",
                "--start", isoOf(now - 4 * DAY), "--end", isoOf(now));

        assertEquals(0, result.exitCode(), result.stderr());
        assertEquals(Set.of(httpUrl("web1-old.log"), httpUrl("web1-new.log")), new HashSet<>(result.lines()));
    }

    @Test
    void listByWorkIdWithAndWithoutWhere() {
        DatalakeClient.Result all = datalake("list", "syslog", "--work-id", "job-1");
        DatalakeClient.Result none = datalake("list", "syslog", "--work-id", "job-1", "--where", "web-2");

        assertEquals(Set.of(pushed.get("web1-old.log"), pushed.get("web1-new.log")), new HashSet<>(all.lines()));
        assertEquals(0, none.exitCode(), none.stderr());
        assertEquals(List.of(), none.lines());
    }

    @Test
    void listAsJsonCarriesTheV0RecordShape() throws IOException {
        DatalakeClient.Result result = datalake("list", "syslog", "--where", "web-2", "--format", "json",
                "--start", Long.toString(now - 4 * DAY), "--end", Long.toString(now));

        assertEquals(1, result.lines().size(), result.stdout());
        JsonNode record = Events.JSON.readTree(result.lines().get(0));
        assertEquals(pushed.get("web2-long.log"), record.path("url").asText());
        assertEquals(httpUrl("web2-long.log"), record.path("http_url").asText());
        assertEquals(now - 2 * DAY, record.path("metadata").path("start").asLong());
        assertEquals(now, record.path("metadata").path("end").asLong());
        assertTrue(record.path("metadata").path("work_id").isNull());
        assertTrue(record.path("metadata").path("start_iso").asText().endsWith("Z"));
        assertEquals(("content of web2-long.log\n").length(), record.path("size").asLong());
    }

    @Test
    void listFollowsNextAcrossPages() {
        DatalakeClient.Result result = datalake("list", "bulk", "--start", Long.toString(now - 6 * DAY),
                "--end", Long.toString(now));

        assertEquals(0, result.exitCode(), result.stderr());
        assertEquals(240, result.lines().size());
        assertEquals(240, new HashSet<>(result.lines()).size());
    }

    @Test
    void latestPrintsTheNewestFileOfAWhatAndWhere() {
        DatalakeClient.Result web1 = datalake("latest", "syslog", "web-1");
        DatalakeClient.Result web2 = datalake("latest", "syslog", "web-2", "--format", "http", "--lookback", "3");

        assertEquals(List.of(pushed.get("web1-new.log")), web1.lines());
        assertEquals(List.of(httpUrl("web2-long.log")), web2.lines());
    }

    @Test
    void fetchAndCatReadTheContentThroughTheRedirectToS3() throws IOException {
        Path fetchDir = Files.createDirectories(work.resolve("fetched"));
        DatalakeClient.Result fetch = show(client.run(fetchDir, "fetch", httpUrl("web1-new.log")),
                "fetch", httpUrl("web1-new.log"));
        DatalakeClient.Result cat = datalake("cat", httpUrl("web2-long.log"));

        assertEquals(0, fetch.exitCode(), fetch.stderr());
        assertEquals(List.of(ids.get("web1-new.log")), fetch.lines());
        assertEquals("content of web1-new.log\n",
                Files.readString(fetchDir.resolve(ids.get("web1-new.log")), StandardCharsets.UTF_8));
        assertEquals(0, cat.exitCode(), cat.stderr());
        assertTrue(cat.stdout().contains("content of web2-long.log"), cat.stdout());
    }

    @Test
    void fetchWithATemplateUsesTheIsoTimesOfOurMetadata() {
        DatalakeClient.Result fetch = datalake("fetch", "--filename-template", "{where}/{what}-{start_iso}.log",
                httpUrl("web1-old.log"));

        assertEquals(0, fetch.exitCode(), fetch.stderr());
        assertTrue(fetch.stdout().strip().startsWith("web-1/syslog-"), fetch.stdout());
        assertTrue(Files.isRegularFile(work.resolve(fetch.stdout().strip())));
    }

    @Test
    void ourErrorsReachTheUserAsTheClientPrintsV0Errors() {
        DatalakeClient.Result backwards = datalake("list", "syslog", "--start", Long.toString(now),
                "--end", Long.toString(now - DAY));
        DatalakeClient.Result nothing = datalake("latest", "syslog", "nowhere");
        DatalakeClient.Result missing = datalake("fetch", server.url() + "/v0/archive/files/no-such-id/data");

        assertEquals(2, backwards.exitCode());
        assertTrue(backwards.stderr().contains("(InvalidWorkInterval)"), backwards.stderr());
        assertEquals(2, nothing.exitCode());
        assertTrue(nothing.stderr().contains("(NoSuchFile)"), nothing.stderr());
        assertEquals(2, missing.exitCode());
        assertTrue(missing.stderr().contains("(NoSuchFile)"), missing.stderr());
    }

    @Test
    void latestDataAndFileDataRedirectToAPresignedS3LinkThatWorks() throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder()
                .followRedirects(java.net.http.HttpClient.Redirect.NEVER).build();
        java.net.http.HttpResponse<String> redirect = http.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(server.url() + "/v0/archive/latest/syslog/web-1/data")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        String location = redirect.headers().firstValue("location").orElseThrow();
        java.net.http.HttpResponse<String> content = http.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(location)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());

        assertEquals(302, redirect.statusCode());
        assertTrue(location.startsWith(AWS.motoEndpoint() + "/" + tables.stack().bucket() + "/"
                + ids.get("web1-new.log") + "/data?") && location.contains("X-Amz-Expires=900"), location);
        assertEquals(200, content.statusCode());
        assertEquals("content of web1-new.log\n", content.body());
    }

    private static String isoOf(long ms) {
        return datalake.records.Times.toIso(ms);
    }

    /**
     * As the Python API answered /data: a gzipped file is sent with Content-Encoding gzip, so the
     * client's HTTP library hands over the uncompressed bytes. Here the redirect's presigned URL carries
     * response-content-encoding, which S3 (and moto) answer with that header.
     */
    @Test
    void catAndFetchOfAGzippedFileGiveItsUncompressedBytes() throws IOException {
        Path fetchDir = Files.createDirectories(work.resolve("fetched-gz"));
        DatalakeClient.Result cat = datalake("cat", httpUrl("app.log.gz"));
        DatalakeClient.Result fetch = show(client.run(fetchDir, "fetch", httpUrl("report.json.gz")),
                "fetch", httpUrl("report.json.gz"));

        assertEquals(0, cat.exitCode(), cat.stderr());
        assertEquals(new String(APP_LOG, StandardCharsets.UTF_8) + "\n", cat.stdout(), "what cat echoes, and a newline");
        assertEquals(0, fetch.exitCode(), fetch.stderr());
        assertArrayEquals(REPORT, Files.readAllBytes(fetchDir.resolve(ids.get("report.json.gz"))));
    }

    /**
     * The headers S3 answers the redirect with, for each route to a file's data: the type guessed from
     * the file's path as Python's mimetypes does (a .gz suffix is the encoding, not the type), and gzip
     * for gzip content. The bytes are the object's, unchanged.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "report.json|/v0/archive/files/{id}/data|application/json|",
            "report.json.gz|/v0/archive/files/{id}/data|application/json|gzip",
            "app.log.gz|/v0/archive/files/{id}/data|text/plain|gzip",
            "app.log.gz|/v0/archive/latest/app/web-1/data|text/plain|gzip",
            "web1-new.log|/v0/archive/files/{id}/data|text/plain|"})
    void theRedirectIsAnsweredWithTheTypeOfThePathAndGzipEncoding(String name, String route, String type,
            String encoding) throws Exception {
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        HttpResponse<byte[]> redirect = http.send(HttpRequest.newBuilder(URI.create(server.url()
                + route.replace("{id}", ids.get(name)))).build(), HttpResponse.BodyHandlers.ofByteArray());
        String location = redirect.headers().firstValue("location").orElseThrow();
        HttpResponse<byte[]> content = http.send(HttpRequest.newBuilder(URI.create(location)).build(),
                HttpResponse.BodyHandlers.ofByteArray());

        assertEquals(302, redirect.statusCode());
        assertTrue(location.contains("response-content-type=" + type.replace("/", "%2F")), location);
        assertEquals(200, content.statusCode());
        assertEquals(type, content.headers().firstValue("content-type").orElse(null));
        assertEquals(Optional.ofNullable(encoding), content.headers().firstValue("content-encoding"));
        assertArrayEquals(Files.readAllBytes(work.resolve(name)), content.body());
    }

    private static byte[] gzip(byte[] content) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
