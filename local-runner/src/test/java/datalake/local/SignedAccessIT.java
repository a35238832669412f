package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/local.sh --auth iam}: the API takes SigV4-signed requests only, verified with the AWS
 * SDK for Java's signer, and the real {@code datalake} client reaches it through this repository's
 * Python package (botocore's signer): signed list (across next pages), latest and fetch (through the
 * 302 to S3) work; unsigned or wrongly signed calls fail with a message saying so. The explorer proxy
 * (scripts/explore.sh) signs the page's calls the same way.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SignedAccessIT {
    private static final long HOUR = 3_600_000L;
    private static final int FILES = 130;

    @TempDir
    static Path work;
    private RunnerHarness runner;
    private long first;
    private List<String> ids;

    @BeforeAll
    void startRunnerWithIamAuthAndData() throws Exception {
        runner = RunnerHarness.start("signed-it", "--auth", "iam");
        first = (System.currentTimeMillis() / HOUR - FILES - 1) * HOUR;
        ids = runner.pushHourly("signed-it", "host-a", first, FILES, 0, 0, Files.createDirectories(work.resolve("push")));
        runner.awaitFiles("signed-it", first, first + FILES * HOUR, FILES, new LocalSigner(RunnerOptions.Auth.IAM));
    }

    @AfterAll
    void stopRunner() throws InterruptedException {
        if (runner != null) {
            runner.close();
        }
    }

    /** The client's configuration for the runner; {@code signed} adds the package's SigV4 session. */
    private Map<String, String> client(boolean signed) {
        Map<String, String> env = new HashMap<>(PythonTools.localAws(work));
        env.put("DATALAKE_HTTP_URL", runner.api);
        env.put("DATALAKE_STORAGE_URL", "s3://" + runner.bucket);
        if (signed) {
            env.put("DATALAKE_SESSION_CLASS", "datalake_aws.SigV4Session");
        }
        return env;
    }

    private PythonTools.Result datalake(Map<String, String> env, String... arguments) {
        return PythonTools.datalake(work, env, arguments);
    }

    @Test
    void signedListFollowsEveryNextPage() {
        PythonTools.Result list = datalake(client(true), "list", "signed-it", "--start", Long.toString(first),
                "--end", Long.toString(first + FILES * HOUR));

        assertEquals(0, list.exitCode(), list.stderr());
        assertEquals(FILES, list.lines().size());
        assertEquals(FILES, new HashSet<>(list.lines()).size());
    }

    @Test
    void signedLatestAndFetchThroughTheRedirectToS3() throws Exception {
        String newest = ids.get(ids.size() - 1);
        String httpUrl = runner.api + "/v0/archive/files/" + newest + "/data";

        PythonTools.Result latest = datalake(client(true), "latest", "signed-it", "host-a");
        PythonTools.Result fetch = datalake(client(true), "fetch", httpUrl);

        assertEquals(0, latest.exitCode(), latest.stderr());
        assertEquals(List.of("s3://" + runner.bucket + "/" + newest + "/data"), latest.lines());
        assertEquals(0, fetch.exitCode(), fetch.stderr());
        assertEquals("signed-it host-a hour " + (FILES - 1) + "\n",
                Files.readString(work.resolve(newest), StandardCharsets.UTF_8));
    }

    @Test
    void anUnsignedClientIsRefusedAsApiGatewayRefusesIt() {
        PythonTools.Result list = datalake(client(false), "list", "signed-it", "--start", Long.toString(first),
                "--end", Long.toString(first + HOUR));

        assertEquals(2, list.exitCode());
        assertTrue(list.stderr().contains("Datalake HTTP API failed: b'{\"message\":\"Forbidden\"}' (403)"), list.stderr());
        assertTrue(runner.lines().stream().anyMatch(l -> l.contains("http-api: 403")
                && l.contains("the request is not signed")), "the runner says why");
    }

    @Test
    void aWrongSecretKeyIsRefusedWithAMessageSayingWhatToCheck() {
        Map<String, String> env = client(true);
        env.put("AWS_SECRET_ACCESS_KEY", "not-the-local-secret");

        PythonTools.Result latest = datalake(env, "latest", "signed-it", "host-a");

        assertEquals(2, latest.exitCode());
        assertTrue(latest.stderr().contains("(403)"), latest.stderr());
        assertTrue(latest.stderr().contains("the SigV4 signature was refused: the access key ending "
                + "ocal (from env) needs execute-api:Invoke on this API"), latest.stderr());
    }

    @Test
    void theExplorerCommandTheRunnerPrintsWorksAsPrintedAndIsTheReadmes() throws Exception {
        // As documented, scripts/explore.sh --api <local API> failed twice: no region, then no credentials.
        String command = runner.lines().stream().filter(l -> l.contains("scripts/explore.sh --api ")).findFirst()
                .orElseThrow().strip();
        String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
        assertTrue(readme.contains(command.replace(runner.api, "http://127.0.0.1:8080")),
                "the README gives the command the runner prints: " + command);

        ProcessBuilder shell = new ProcessBuilder("bash", "-c", command + " --port 0")
                .directory(Path.of("..").toFile()).redirectErrorStream(true);
        shell.environment().keySet().removeIf(name -> name.startsWith("AWS_"));
        shell.environment().putAll(Map.of("HOME", work.toString(), "AWS_CONFIG_FILE", work.resolve("none").toString(),
                "AWS_SHARED_CREDENTIALS_FILE", work.resolve("none").toString(), "AWS_EC2_METADATA_DISABLED", "true"));
        Process explore = shell.start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(explore.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            List<String> seen = new ArrayList<>();
            while ((line = out.readLine()) != null && !line.startsWith("datalake explore: ready url=")) {
                seen.add(line);
            }
            assertTrue(line != null, "the proxy starts: " + seen);
            String proxy = line.substring(line.indexOf("url=") + 4).strip();
            HttpResponse<String> feeds = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(proxy
                    + "/v0/archive/feeds/?what=signed-it")).build(), HttpResponse.BodyHandlers.ofString());

            assertEquals(200, feeds.statusCode(), feeds.body());
            assertTrue(feeds.body().contains("\"where\":\"host-a\""), feeds.body());
        } finally {
            explore.descendants().forEach(ProcessHandle::destroy);
            explore.destroy();
        }
    }

    @Test
    void theExplorerProxySignsThePageCallsAndHandsTheRedirectToTheBrowser() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        try (PythonTools.Explorer proxy = PythonTools.explore(work, PythonTools.localAws(work), "--api", runner.api,
                "--page-dir", Path.of("..", "explorer").toAbsolutePath().normalize().toString())) {
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(proxy.url() + "/")).build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> feeds = http.send(HttpRequest.newBuilder(URI.create(proxy.url()
                    + "/v0/archive/feeds/?what=signed-it")).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> direct = http.send(HttpRequest.newBuilder(URI.create(runner.api
                    + "/v0/archive/feeds/?what=signed-it")).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> data = http.send(HttpRequest.newBuilder(URI.create(proxy.url() + "/v0/archive/files/"
                    + ids.get(0) + "/data")).build(), HttpResponse.BodyHandlers.ofString());
            String location = data.headers().firstValue("location").orElseThrow();
            HttpResponse<String> file = http.send(HttpRequest.newBuilder(URI.create(location)).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertEquals(200, page.statusCode());
            assertTrue(page.body().contains("datalake explorer"));
            assertEquals(200, feeds.statusCode(), feeds.body());
            assertTrue(feeds.body().contains("\"where\":\"host-a\""), feeds.body());
            assertEquals(403, direct.statusCode(), "the API itself stays closed");
            assertEquals(302, data.statusCode());
            assertTrue(location.startsWith(runner.s3 + "/" + runner.bucket + "/" + ids.get(0) + "/data?"), location);
            assertEquals("signed-it host-a hour 0\n", file.body());
        }
    }
}
