package datalake.local;

import datalake.emulators.Emulators;
import datalake.emulators.MotoServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The test virtualenv's Python programs (scripts/lib/venv.sh installs them): the real {@code datalake}
 * client, with this repository's {@code datalake_aws} package, and {@code datalake-explore}. They run
 * with nothing of the caller's AWS or datalake configuration, only what a test gives them.
 */
final class PythonTools {
    private PythonTools() {
    }

    /** Output and exit code of one command. */
    record Result(int exitCode, String stdout, String stderr) {
        List<String> lines() {
            return stdout.isBlank() ? List.of() : List.of(stdout.strip().split("\\R"));
        }
    }

    static Path executable(String name) {
        Path executable = MotoServer.defaultVirtualEnv().resolve("bin").resolve(name);
        if (!Files.isExecutable(executable)) {
            throw new IllegalStateException(executable + " is not installed; run scripts/lib/venv.sh (scripts/test.sh "
                    + "does it), which installs the datalake client and clients/python.");
        }
        return executable;
    }

    /** The local credentials, the region, and no configuration files of the caller's. */
    static Map<String, String> localAws(Path home) {
        Map<String, String> env = new HashMap<>();
        env.put("AWS_ACCESS_KEY_ID", Emulators.ACCESS_KEY_ID);
        env.put("AWS_SECRET_ACCESS_KEY", Emulators.SECRET_ACCESS_KEY);
        // AWS_DEFAULT_REGION, not AWS_REGION: the datalake client would send S3 calls to AWS with the latter.
        env.put("AWS_DEFAULT_REGION", Emulators.REGION.id());
        env.put("AWS_CONFIG_FILE", home.resolve("no-aws-config").toString());
        env.put("AWS_SHARED_CREDENTIALS_FILE", home.resolve("no-aws-credentials").toString());
        env.put("AWS_EC2_METADATA_DISABLED", "true");
        return env;
    }

    private static ProcessBuilder builder(Path workingDir, Map<String, String> environment, List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workingDir.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(name -> name.startsWith("AWS_") || name.startsWith("DATALAKE_"));
        env.put("HOME", workingDir.toString());
        env.putAll(environment);
        return builder;
    }

    /** Runs {@code datalake <arguments>} to its end. */
    static Result datalake(Path workingDir, Map<String, String> environment, String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(executable("datalake").toString());
        command.addAll(List.of(arguments));
        try {
            Path out = Files.createTempFile(workingDir, "stdout", ".txt");
            Path err = Files.createTempFile(workingDir, "stderr", ".txt");
            Process process = builder(workingDir, environment, command)
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("datalake " + String.join(" ", arguments) + " did not end in 120 s");
            }
            Result result = new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
            Files.delete(out);
            Files.delete(err);
            System.out.println("$ datalake " + String.join(" ", arguments) + "  [exit " + result.exitCode() + ", "
                    + result.lines().size() + " lines]" + (result.exitCode() == 0 ? ""
                    : " " + result.stderr().strip().replaceAll("\\R", " | ")));
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A running {@code datalake-explore}; {@link #close()} stops it. */
    record Explorer(Process process, String url) implements AutoCloseable {
        @Override
        public void close() {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Starts {@code datalake-explore --port 0 <arguments>} and waits for its ready line. */
    static Explorer explore(Path workingDir, Map<String, String> environment, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(executable("datalake-explore").toString(), "--port", "0"));
        command.addAll(List.of(arguments));
        Map<String, String> env = new HashMap<>(environment);
        env.put("DATALAKE_EXPLORE_QUIET", "1");
        Process process = builder(workingDir, env, command).redirectErrorStream(true).start();
        CompletableFuture<String> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            List<String> lines = new ArrayList<>();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    lines.add(line);
                    if (line.startsWith("datalake explore: ready url=")) {
                        ready.complete(line.substring(line.indexOf("url=") + 4).strip());
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
            ready.completeExceptionally(new AssertionError("datalake-explore ended: " + String.join("\n", lines)));
        }, "explore-output");
        reader.setDaemon(true);
        reader.start();
        try {
            return new Explorer(process, ready.get(30, TimeUnit.SECONDS));
        } catch (Exception e) {
            process.destroyForcibly();
            throw e;
        }
    }
}
