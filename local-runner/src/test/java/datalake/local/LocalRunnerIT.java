package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.emulators.Emulators;
import datalake.emulators.MotoServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Starts the local runner as scripts/local.sh does (a separate JVM on the built classes and the
 * runtime classpath Maven wrote), on free ports, and uses it as a person would: the demo queries
 * answer, a file pushed with scripts/push.sh's code is indexed, and SIGTERM stops everything.
 */
class LocalRunnerIT {
    private static final Pattern READY = Pattern.compile(
            Pattern.quote(LocalRunner.READY) + " api=(\\S+) s3=(\\S+) bucket=(\\S+)");
    private static Process runner;
    private static final List<String> output = Collections.synchronizedList(new ArrayList<>());
    private static String api;
    private static String s3;
    private static String bucket;
    private static Thread reader;

    @BeforeAll
    static void startRunner() throws Exception {
        Path module = Path.of("").toAbsolutePath();
        String classpath = module.resolve("target/classes") + ":"
                + Files.readString(module.resolve("target/classpath.txt")).strip();
        ProcessBuilder builder = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-Ddatalake.sqlite4java.dir=" + module.resolve("target/native-libs"),
                "-cp", classpath, LocalRunner.class.getName(),
                "--api-port", "0", "--dynamodb-port", "0", "--moto-port", "0", "--prefix", "runner-it")
                .redirectErrorStream(true);
        builder.environment().putAll(Map.of("DATALAKE_VENV", MotoServer.defaultVirtualEnv().toString()));
        runner = builder.start();
        CompletableFuture<Matcher> ready = new CompletableFuture<>();
        reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(runner.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    output.add(line);
                    Matcher m = READY.matcher(line);
                    if (m.find()) {
                        ready.complete(m);
                    }
                }
                ready.completeExceptionally(new AssertionError("the runner exited before it was ready:\n"
                        + String.join("\n", output)));
            } catch (IOException e) {
                ready.completeExceptionally(e);
            }
        }, "runner-output");
        reader.setDaemon(true);
        reader.start();
        Matcher m = ready.get(180, TimeUnit.SECONDS);
        api = m.group(1);
        s3 = m.group(2);
        bucket = m.group(3);
    }

    @AfterAll
    static void stopRunner() throws InterruptedException {
        if (runner == null) {
            return;
        }
        // SIGTERM, as Ctrl-C or a service manager would; through the handle, because Process.destroy()
        // also closes our end of its output, and the runner's last words would be lost.
        runner.toHandle().destroy();
        assertTrue(runner.waitFor(30, TimeUnit.SECONDS), "the runner stops within 30 s of SIGTERM");
        reader.join(5000);
        // The whole output, for whoever reads a failure.
        try {
            Files.write(Path.of("target", "local-runner-it.log"), output);
        } catch (IOException e) {
            // only a convenience
        }
        assertTrue(output.contains("stopping"), "the runner ran its shutdown: "
                + output.subList(Math.max(0, output.size() - 5), output.size()));
        for (ProcessHandle child : runner.descendants().toList()) {
            assertTrue(!child.isAlive(), "no child process (moto) outlives the runner: " + child.info());
        }
    }

    private static String get(String url) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), url + " -> " + response.body());
        return response.body();
    }

    @Test
    void theExampleQueriesItPrintsReturnTheDemoData() throws Exception {
        List<String> printed = output.stream().filter(l -> l.startsWith("  curl '"))
                .map(l -> l.substring("  curl '".length(), l.length() - 1)).toList();

        assertEquals(3, printed.size(), "three example queries are printed");
        for (String url : printed) {
            assertTrue(get(url).contains("\"url\":\"s3://" + bucket + "/"), url + " returns data");
        }
    }

    @Test
    void aPushedFileIsIndexedThroughS3SnsAndSqs() throws Exception {
        Path file = Files.writeString(Files.createTempFile("runner-it", ".log"), "hello from the IT\n");

        long start = System.currentTimeMillis() - 3_600_000;
        String url = Push.run(new String[] {"--endpoint", s3, "--bucket", bucket, "--what", "runner-it",
            "--where", "laptop", "--start", Long.toString(start), "--work-id", "it-job", file.toString()});

        String expected = "\"url\":\"" + url + "\"";
        String latest = api + "/v0/archive/latest/runner-it/laptop";
        long deadline = System.currentTimeMillis() + 30_000;
        String body = "";
        while (System.currentTimeMillis() < deadline && !body.contains(expected)) {
            Thread.sleep(200);
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(latest)).build(), HttpResponse.BodyHandlers.ofString());
            body = response.body();
        }
        assertTrue(body.contains(expected), "the pushed file is the latest runner-it of laptop: " + body);
        assertTrue(get(api + "/v0/archive/files/?what=runner-it&work_id=it-job").contains(expected));
        assertTrue(get(api + "/v0/archive/files/?what=runner-it&start=" + (start - 1000) + "&end=" + (start + 1000))
                .contains(expected));
    }

    @Test
    void aDeletedFileLeavesEveryQueryTheLatestAndItsMetadata() throws Exception {
        // given a pushed file, indexed: the latest, in a work-id query, in a time query, with metadata
        Path file = Files.writeString(Files.createTempFile("runner-it", ".log"), "soon deleted\n");
        long start = System.currentTimeMillis() - 7_200_000;
        String url = Push.run(new String[] {"--endpoint", s3, "--bucket", bucket, "--what", "runner-gone",
            "--where", "laptop", "--start", Long.toString(start), "--work-id", "gone-job", file.toString()});
        String expected = "\"url\":\"" + url + "\"";
        String latest = api + "/v0/archive/latest/runner-gone/laptop";
        String id = url.substring(("s3://" + bucket + "/").length(), url.length() - "/data".length());
        await(() -> status(latest) == 200 && body(latest).contains(expected), "the pushed file is indexed");
        assertEquals(200, status(api + "/v0/archive/files/" + id + "/metadata"));

        // when its object is deleted from the bucket (S3 -> SNS -> SQS -> the ingester, as a put)
        try (S3Client client = Emulators.clientsFor(URI.create(s3)).build(S3Client.builder().forcePathStyle(true))) {
            client.deleteObject(r -> r.bucket(bucket).key(url.substring(("s3://" + bucket + "/").length())));
        }

        // then no query returns it: latest is 404, the work-id and time queries are empty, metadata is 404
        await(() -> status(latest) == 404, "latest answers 404 once the only file is gone");
        assertTrue(!get(api + "/v0/archive/files/?what=runner-gone&work_id=gone-job").contains(expected));
        assertTrue(!get(api + "/v0/archive/files/?what=runner-gone&start=" + (start - 1000) + "&end=" + (start + 1000))
                .contains(expected));
        assertEquals(404, status(api + "/v0/archive/files/" + id + "/metadata"));
    }

    private static int status(String url) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static String body(String url) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
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
    void startupShowsProgress() {
        for (String step : List.of("[1/6]", "[2/6]", "[3/6]", "[4/6]", "[5/6]", "[6/6]")) {
            assertNotNull(output.stream().filter(l -> l.startsWith(step)).findFirst().orElse(null), step);
        }
    }
}
