package datalake.query;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code datalake} command-line client (PyPI {@code datalake}, pinned in
 * scripts/requirements-dev.txt) from the test virtualenv, run as a child process against our API
 * ({@code DATALAKE_HTTP_URL}) and moto's S3, with nothing of the caller's AWS configuration.
 */
final class DatalakeClient {
    private final Path executable;
    private final Map<String, String> environment;

    /** Output and exit code of one command. */
    record Result(int exitCode, String stdout, String stderr) {
        List<String> lines() {
            return stdout.isBlank() ? List.of() : List.of(stdout.strip().split("\\R"));
        }
    }

    DatalakeClient(URI apiUrl, String storageUrl, URI s3Endpoint, String accessKey, String secretKey) {
        this.executable = venvExecutable("datalake");
        // No AWS_REGION: with it, the client sends S3 calls to https://s3-<region>.amazonaws.com, ignoring
        // AWS_ENDPOINT_URL_S3; without it, boto3 honours the endpoint variable (moto).
        this.environment = Map.of(
                "DATALAKE_HTTP_URL", apiUrl.toString(),
                "DATALAKE_STORAGE_URL", storageUrl,
                "AWS_ACCESS_KEY_ID", accessKey,
                "AWS_SECRET_ACCESS_KEY", secretKey,
                "AWS_ENDPOINT_URL_S3", s3Endpoint.toString(),
                "AWS_CONFIG_FILE", "/nonexistent/datalake-query-it/config",
                "AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/datalake-query-it/credentials");
    }

    Result run(Path workingDir, String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(executable.toString());
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).directory(workingDir.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(name -> name.startsWith("AWS_") || name.startsWith("DATALAKE_"));
        env.put("HOME", workingDir.toString());
        env.putAll(environment);
        try {
            Path out = Files.createTempFile(workingDir, "stdout", ".txt");
            Path err = Files.createTempFile(workingDir, "stderr", ".txt");
            Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("datalake " + String.join(" ", arguments) + " did not end in 120 s");
            }
            Result result = new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
            Files.delete(out);
            Files.delete(err);
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * A program of the test virtualenv ({@code datalake}, {@code python}): {@code -Ddatalake.venv}, else
     * {@code $DATALAKE_VENV}, else {@code .venv} in the first parent directory holding {@code .ci} (the
     * emulators' rules, which are package-private there).
     */
    static Path venvExecutable(String name) {
        String configured = System.getProperty("datalake.venv");
        if (configured == null || configured.isBlank()) {
            configured = System.getenv("DATALAKE_VENV");
        }
        Path venv = null;
        if (configured != null && !configured.isBlank()) {
            venv = Path.of(configured);
        } else {
            for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
                if (Files.isDirectory(dir.resolve(".ci"))) {
                    venv = dir.resolve(".venv");
                    break;
                }
            }
        }
        Path executable = venv == null ? null : venv.resolve("bin").resolve(name);
        if (executable == null || !Files.isExecutable(executable)) {
            throw new IllegalStateException(name + " is not installed at " + executable
                    + "; run scripts/lib/venv.sh (scripts/test.sh does it) to install the test virtualenv.");
        }
        return executable;
    }
}
