package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.emulators.Emulators;
import datalake.records.Times;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Starts the local runner as scripts/local.sh does and uses it as a person would: the demo queries
 * answer, a file pushed with scripts/push.sh's code is indexed, the explorer page is served at /, and
 * SIGTERM stops everything.
 */
class LocalRunnerIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static RunnerHarness runner;

    @BeforeAll
    static void startRunner() throws Exception {
        runner = RunnerHarness.start("runner-it");
    }

    @AfterAll
    static void stopRunner() throws InterruptedException {
        if (runner != null) {
            runner.close();
        }
    }

    private static HttpResponse<String> send(String url) throws IOException, InterruptedException {
        return HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** scripts/push.sh's code, in this JVM; returns the one URL it prints. */
    private static String push(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Push.run(args, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8).strip();
    }

    private static String get(String url) throws IOException, InterruptedException {
        HttpResponse<String> response = send(url);
        assertEquals(200, response.statusCode(), url + " -> " + response.body());
        return response.body();
    }

    @Test
    void theExampleQueriesItPrintsReturnTheDemoData() throws Exception {
        List<String> printed = runner.lines().stream().filter(l -> l.startsWith("  curl '"))
                .map(l -> l.substring("  curl '".length(), l.length() - 1)).toList();

        assertEquals(3, printed.size(), "three example queries are printed");
        for (String url : printed) {
            assertTrue(get(url).contains("\"url\":\"s3://" + runner.bucket + "/"), url + " returns data");
        }
    }

    @Test
    void aPushedFileIsIndexedThroughS3SnsAndSqs() throws Exception {
        // a path outside ASCII: S3 user metadata is US-ASCII, so the header escapes it as the Python client does
        Path file = Files.writeString(Files.createTempFile("runner-it-f\u00fcr-\u65e5\u672c", ".log"), "hello from the IT\n");

        long start = System.currentTimeMillis() - 3_600_000;
        String url = push("--endpoint", runner.s3, "--bucket", runner.bucket, "--what", "runner-it",
            "--where", "laptop", "--start", Long.toString(start), "--work-id", "it-job", file.toString());

        String expected = "\"url\":\"" + url + "\"";
        String latest = runner.api + "/v0/archive/latest/runner-it/laptop";
        long deadline = System.currentTimeMillis() + 30_000;
        String body = "";
        while (System.currentTimeMillis() < deadline && !body.contains(expected)) {
            Thread.sleep(200);
            body = send(latest).body();
        }
        assertTrue(body.contains(expected), "the pushed file is the latest runner-it of laptop: " + body);
        assertTrue(body.contains("\"path\":\"" + file + "\""), "its path as it is: " + body);
        assertTrue(get(runner.api + "/v0/archive/files/?what=runner-it&work_id=it-job").contains(expected));
        assertTrue(get(runner.api + "/v0/archive/files/?what=runner-it&start=" + (start - 1000) + "&end="
                + (start + 1000)).contains(expected));
    }

    @Test
    void fieldsBeyondTheNineThatThePythonClientWroteAreServedByEveryRoute() throws Exception {
        // given a file uploaded as the Python datalake client uploads it, its header with fields beyond the nine
        // (src/test/resources/python-client-extras: written by the client's own code, make_header.py)
        JsonNode fixture;
        try (InputStream in = LocalRunnerIT.class.getResourceAsStream("/python-client-extras/header.json")) {
            fixture = JSON.readTree(in);
        }
        JsonNode header = JSON.readTree(fixture.path("header").asText());
        String key = header.path("id").asText() + "/data";
        try (S3Client client = Emulators.clientsFor(URI.create(runner.s3)).build(S3Client.builder().forcePathStyle(true))) {
            client.putObject(r -> r.bucket(runner.bucket).key(key).metadata(Map.of("datalake", fixture.path("header").asText())),
                    RequestBody.fromString(fixture.path("content").asText()));
        }

        // when S3, SNS, SQS and the ingester have indexed it
        String files = runner.api + "/v0/archive/files/?what=runner-extras&start=" + header.path("start").asLong()
                + "&end=" + header.path("end").asLong();
        await(() -> send(files).body().contains("\"url\":\"s3://" + runner.bucket + "/" + key + "\""), "the file is indexed");

        // then a time query, the latest route and the file's metadata route serve each field as the client wrote it
        Map<String, JsonNode> served = Map.of(
                "files", JSON.readTree(get(files)).path("records").get(0).path("metadata"),
                "latest", JSON.readTree(get(runner.api + "/v0/archive/latest/runner-extras/laptop")).path("metadata"),
                "metadata", JSON.readTree(get(runner.api + "/v0/archive/files/" + header.path("id").asText() + "/metadata")));
        List<String> extras = new ArrayList<>();
        header.fieldNames().forEachRemaining(name -> {
            if (!List.of("version", "start", "end", "path", "work_id", "where", "what", "id", "hash").contains(name)) {
                extras.add(name);
            }
        });
        assertEquals(List.of("data-version", "tags", "quality", "count", "owner"), extras);
        served.forEach((route, metadata) -> header.fieldNames().forEachRemaining(name -> assertEquals(header.get(name),
                metadata.get(name), route + " serves metadata field " + name + " as written: " + metadata)));
    }

    @Test
    void aDirectoryPushedWithScriptsPushShIsIndexedFileByFile(@TempDir Path dir) throws Exception {
        // scripts/push.sh takes a directory (one JVM for all its files) and finds the runner as local.sh's variables say.
        for (int i = 0; i < 30; i++) {
            Files.writeString(dir.resolve("part-" + i + ".log"), "part " + i + "\n");
        }
        ProcessBuilder push = new ProcessBuilder("scripts/push.sh", "--what", "runner-bulk", "--where", "laptop",
                "--start", "2026-01-05T00:00:00Z", dir.toString()).directory(Path.of("..").toFile())
                .redirectOutput(dir.resolveSibling(dir.getFileName() + ".out").toFile())
                .redirectError(dir.resolveSibling(dir.getFileName() + ".err").toFile());
        push.environment().put("DATALAKE_LOCAL_MOTO_PORT", Integer.toString(URI.create(runner.s3).getPort()));
        push.environment().put("DATALAKE_LOCAL_PREFIX", "runner-it");

        Process process = push.start();
        assertTrue(process.waitFor(120, java.util.concurrent.TimeUnit.SECONDS));

        List<String> urls = Files.readAllLines(dir.resolveSibling(dir.getFileName() + ".out"));
        String progress = Files.readString(dir.resolveSibling(dir.getFileName() + ".err"));
        assertEquals(0, process.exitValue(), progress);
        assertEquals(30, urls.size());
        assertTrue(progress.contains("push: 30 of 30 files in "), progress);
        String files = runner.api + "/v0/archive/files/?what=runner-bulk&start=2026-01-05T00:00:00Z&end=2026-01-05T00:00:01Z";
        await(() -> urls.stream().allMatch(url -> {
            try {
                return send(files).body().contains("\"url\":\"" + url + "\"");
            } catch (Exception e) {
                return false;
            }
        }), "every pushed file is indexed");
    }

    @Test
    void aFileModifiedAfterEndIsRefusedByNameAndTheOthersArePushed(@TempDir Path dir) throws Exception {
        // given two files without --start, one modified after --end and one before it
        long end = System.currentTimeMillis() - 3_600_000;
        Path early = Files.writeString(dir.resolve("early.log"), "early\n");
        Path late = Files.writeString(dir.resolve("late.log"), "late\n");
        Files.setLastModifiedTime(early, FileTime.fromMillis(end - 60_000));
        Files.setLastModifiedTime(late, FileTime.fromMillis(end + 60_000));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        // when both are pushed
        int status = Push.run(new String[] {"--endpoint", runner.s3, "--bucket", runner.bucket, "--what", "runner-late",
            "--where", "laptop", "--end", Times.toIso(end), dir.toString()}, Map.of(),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        // then the late one is refused by name and the early one is pushed
        String errors = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, status, errors);
        assertTrue(errors.contains("error: " + late + " was not pushed: it starts at its modification time"), errors);
        List<String> urls = out.toString(StandardCharsets.UTF_8).strip().lines().toList();
        assertEquals(1, urls.size(), String.join("\n", urls));
        assertTrue(urls.get(0).startsWith("s3://" + runner.bucket + "/"), urls.get(0));
    }

    @Test
    void aMalformedPercentEscapeIsAnsweredByTheQueryApisJson() throws Exception {
        // The JDK's server answered "400 text/html URISyntaxException thrown" before the query API saw it.
        URI api = URI.create(runner.api);
        String answer;
        try (java.net.Socket socket = new java.net.Socket(api.getHost(), api.getPort())) {
            socket.getOutputStream().write(("GET /v0/archive/files/?what=syslog&start=%zz&end=2 HTTP/1.1\r\nHost: "
                    + api.getAuthority() + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }

        assertTrue(answer.startsWith("HTTP/1.1 400 "), answer);
        assertTrue(answer.contains("content-type: application/json"), answer);
        assertTrue(answer.contains("{\"code\":\"InvalidTime\","), answer);
    }

    @Test
    void theExplorerPageIsServedAtTheRoot() throws Exception {
        HttpResponse<String> page = send(runner.api + "/");
        HttpResponse<String> script = send(runner.api + "/explorer.js");

        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("<title>datalake explorer</title>"), page.body());
        assertEquals("text/html; charset=utf-8", page.headers().firstValue("content-type").orElseThrow());
        assertEquals(200, script.statusCode());
        assertTrue(script.body().contains("/v0/archive/feeds/"));
    }

    @Test
    void aDeletedFileLeavesEveryQueryTheLatestAndItsMetadata() throws Exception {
        // given a pushed file, indexed: the latest, in a work-id query, in a time query, with metadata
        Path file = Files.writeString(Files.createTempFile("runner-it", ".log"), "soon deleted\n");
        long start = System.currentTimeMillis() - 7_200_000;
        String url = push("--endpoint", runner.s3, "--bucket", runner.bucket, "--what", "runner-gone",
            "--where", "laptop", "--start", Long.toString(start), "--work-id", "gone-job", file.toString());
        String expected = "\"url\":\"" + url + "\"";
        String latest = runner.api + "/v0/archive/latest/runner-gone/laptop";
        String id = url.substring(("s3://" + runner.bucket + "/").length(), url.length() - "/data".length());
        await(() -> {
            HttpResponse<String> answer = send(latest);
            return answer.statusCode() == 200 && answer.body().contains(expected);
        }, "the pushed file is indexed");
        assertEquals(200, send(runner.api + "/v0/archive/files/" + id + "/metadata").statusCode());

        // when its object is deleted from the bucket (S3 -> SNS -> SQS -> the ingester, as a put)
        try (S3Client client = Emulators.clientsFor(URI.create(runner.s3)).build(S3Client.builder().forcePathStyle(true))) {
            client.deleteObject(r -> r.bucket(runner.bucket).key(url.substring(("s3://" + runner.bucket + "/").length())));
        }

        // then no query returns it: latest is 404, the work-id and time queries are empty, metadata is 404
        await(() -> send(latest).statusCode() == 404, "latest answers 404 once the only file is gone");
        assertTrue(!get(runner.api + "/v0/archive/files/?what=runner-gone&work_id=gone-job").contains(expected));
        assertTrue(!get(runner.api + "/v0/archive/files/?what=runner-gone&start=" + (start - 1000) + "&end=" + (start + 1000))
                .contains(expected));
        assertEquals(404, send(runner.api + "/v0/archive/files/" + id + "/metadata").statusCode());
    }

    private interface Check {
        boolean holds() throws Exception;
    }

    private static void await(Check check, String what) throws Exception {
        long deadline = System.currentTimeMillis() + 30_000;
        while (!check.holds()) {
            assertTrue(System.currentTimeMillis() < deadline, what + " within 30 s");
            Thread.sleep(200);
        }
    }

    @Test
    void theConsoleShowsNoLineARequestTheLogFileHoldsThem() throws Exception {
        // One JSON line per request made 125 MB of console in eight minutes of load.
        for (int i = 0; i < 50; i++) {
            get(runner.api + "/v0/archive/latest/syslog/webserver02");
        }

        await(() -> runner.functionLog().stream().filter(l -> l.contains("\"message\":\"request\"")).count() >= 50,
                "the log file holds the request lines");
        assertEquals(List.of(), runner.lines().stream().filter(l -> l.contains("\"message\":\"request\"")
                || l.contains("\"message\":\"message handled\"")).toList(), "the console holds none");
        assertTrue(runner.lines().stream().anyMatch(l -> l.startsWith("  function logs  ")
                && l.endsWith("target/local/runner-it.log (here: a summary every 10 s, and the faults)")), "it says where they are");
    }

    @Test
    void startupShowsProgress() {
        for (String step : List.of("[1/6]", "[2/6]", "[3/6]", "[4/6]", "[5/6]", "[6/6]")) {
            assertNotNull(runner.lines().stream().filter(l -> l.startsWith(step)).findFirst().orElse(null), step);
        }
    }
}
