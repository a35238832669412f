package datalake.local;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.emulators.Emulators;
import datalake.emulators.MotoServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
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
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The local runner started as scripts/local.sh starts it (a separate JVM on the built classes and the
 * runtime classpath Maven wrote), on free ports, with extra options; its output kept for the test.
 * {@link #close()} stops it with SIGTERM, as Ctrl-C would, and checks that it stopped cleanly.
 */
final class RunnerHarness implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern READY = Pattern.compile(
            Pattern.quote(LocalRunner.READY) + " api=(\\S+) s3=(\\S+) bucket=(\\S+)");

    /** Every line the runner printed so far. */
    final List<String> output;
    final String api;
    final String s3;
    final String bucket;
    private final Process runner;
    private final Thread reader;
    private final String name;

    private RunnerHarness(String name, Process runner, Thread reader, List<String> output, Matcher ready) {
        this.name = name;
        this.output = output;
        this.runner = runner;
        this.reader = reader;
        this.api = ready.group(1);
        this.s3 = ready.group(2);
        this.bucket = ready.group(3);
    }

    /** Starts a runner with names of its own ({@code --prefix name}) and waits until it is ready. */
    static RunnerHarness start(String name, String... options) throws Exception {
        Path module = Path.of("").toAbsolutePath();
        String classpath = module.resolve("target/classes") + ":"
                + Files.readString(module.resolve("target/classpath.txt")).strip();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classpath, LocalRunner.class.getName(),
                "--api-port", "0", "--dynamodb-port", "0", "--moto-port", "0", "--prefix", name));
        command.addAll(List.of(options));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(Map.of("DATALAKE_VENV", MotoServer.defaultVirtualEnv().toString()));
        Process runner = builder.start();
        List<String> output = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Matcher> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
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
        RunnerHarness harness;
        try {
            harness = new RunnerHarness(name, runner, reader, output, ready.get(180, TimeUnit.SECONDS));
        } catch (Exception e) {
            runner.toHandle().destroy();
            throw e;
        }
        return harness;
    }

    /** The lines printed so far, a copy. */
    List<String> lines() {
        synchronized (output) {
            return new ArrayList<>(output);
        }
    }

    /**
     * Pushes files as the datalake client does, one an hour from {@code firstStart} (each an hour long),
     * skipping the hours in {@code [gapFrom, gapTo)} (relative to the first), and returns their ids.
     */
    List<String> pushHourly(String what, String where, long firstStart, int hours, int gapFrom, int gapTo, Path dir)
            throws IOException {
        Pusher pusher = new Pusher(s3Client(), bucket);
        List<String> ids = new ArrayList<>();
        for (int h = 0; h < hours; h++) {
            if (h >= gapFrom && h < gapTo) {
                continue;
            }
            Path file = Files.writeString(dir.resolve(what + "-" + where + "-" + h + ".log"),
                    what + " " + where + " hour " + h + "\n");
            long start = firstStart + h * 3_600_000L;
            ids.add(pusher.push(file, new Pusher.FileFacts(what, where, start, start + 3_600_000L - 1, null,
                    "/var/log/" + what + ".log")).metadata().id());
        }
        return ids;
    }

    /** Waits until the files route lists {@code count} files of {@code what} in [start, end] (ingest is asynchronous). */
    void awaitFiles(String what, long start, long end, int count, LocalSigner signer) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.currentTimeMillis() + 120_000;
        int found = 0;
        while (System.currentTimeMillis() < deadline) {
            found = 0;
            String url = api + "/v0/archive/files/?what=" + what + "&start=" + start + "&end=" + end;
            while (url != null) {
                HttpResponse<String> response = http.send(signer.get(url), HttpResponse.BodyHandlers.ofString());
                JsonNode page = JSON.readTree(response.body());
                found += page.path("records").size();
                url = page.path("next").isNull() ? null : page.path("next").asText();
            }
            if (found >= count) {
                return;
            }
            Thread.sleep(500);
        }
        throw new AssertionError("only " + found + " of " + count + " " + what + " files were indexed in 120 s");
    }

    /** The runner's own child processes (moto). */
    List<ProcessHandle> children() {
        return runner.children().toList();
    }

    /** Waits for the runner to end by itself; its exit status, or empty when it still runs after {@code seconds}. */
    java.util.OptionalInt awaitExit(long seconds) throws InterruptedException {
        return runner.waitFor(seconds, TimeUnit.SECONDS) ? java.util.OptionalInt.of(runner.exitValue())
                : java.util.OptionalInt.empty();
    }

    /** The functions' log lines (the runner's --log file). */
    List<String> functionLog() throws IOException {
        return Files.readAllLines(Path.of("target", "local", name + ".log"));
    }

    /** An S3 client for the runner's moto, path style, with the local credentials. */
    S3Client s3Client() {
        return Emulators.clientsFor(URI.create(s3)).build(S3Client.builder().forcePathStyle(true));
    }

    @Override
    public void close() {
        // SIGTERM, as Ctrl-C or a service manager would; through the handle, because Process.destroy()
        // also closes our end of its output, and the runner's last words would be lost.
        runner.toHandle().destroy();
        try {
            assertTrue(runner.waitFor(30, TimeUnit.SECONDS), "the runner stops within 30 s of SIGTERM");
            reader.join(5000);
        } catch (InterruptedException e) {
            runner.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while the runner stopped", e);
        }
        List<String> output = lines();
        try {
            Files.write(Path.of("target", name + ".log"), output);
        } catch (IOException e) {
            // only a convenience for whoever reads a failure
        }
        assertTrue(output.contains("stopping"), "the runner ran its shutdown: "
                + output.subList(Math.max(0, output.size() - 5), output.size()));
        for (ProcessHandle child : runner.descendants().toList()) {
            assertTrue(!child.isAlive(), "no child process (moto) outlives the runner: " + child.info());
        }
    }
}
