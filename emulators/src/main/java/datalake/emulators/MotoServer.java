package datalake.emulators;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * moto's server mode (S3, SQS, SNS and their notifications) as a child process on 127.0.0.1, run from
 * the test virtualenv that scripts/lib/venv.sh installs. {@link #stop()} ends the process and its
 * descendants; a JVM shutdown hook does the same if nobody called it.
 */
public final class MotoServer implements AutoCloseable {
    /** How long to wait for moto to answer HTTP after starting it (its imports take a few seconds). */
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(60);

    private static final int OUTPUT_LINES_KEPT = 40;
    private static final int PORT_ATTEMPTS = 3;
    private static Path launcher;

    private final Path venv;
    private final int requestedPort;
    private final Duration startupTimeout;
    private final Deque<String> output = new ArrayDeque<>();
    private Process process;
    private Thread shutdownHook;
    private int port;

    /** moto from the located virtualenv (see the README), on a free port. */
    public MotoServer() {
        this(VirtualEnv.locate(), 0, DEFAULT_STARTUP_TIMEOUT);
    }

    /**
     * @param venv the virtualenv holding moto_server
     * @param port the port, or 0 for a free one
     * @param startupTimeout how long {@link #start()} waits for moto to answer
     */
    public MotoServer(Path venv, int port, Duration startupTimeout) {
        this.venv = venv;
        this.requestedPort = port;
        this.startupTimeout = startupTimeout;
    }

    /** The virtualenv this repository's tests use: see the README for how it is found. */
    public static Path defaultVirtualEnv() {
        return VirtualEnv.locate();
    }

    /**
     * Starts moto and waits until it answers; does nothing when it runs already.
     *
     * @throws EmulatorNotInstalledException when moto_server is not in the virtualenv
     * @throws EmulatorStartException when moto exits or does not answer within the timeout
     */
    public synchronized void start() {
        if (process != null) {
            return;
        }
        Path executable = VirtualEnv.motoServer(venv);
        if (!Files.isExecutable(executable)) {
            throw new EmulatorNotInstalledException("moto_server not found in " + executable.getParent()
                    + "; run scripts/lib/venv.sh (scripts/test.sh does it) to install the test virtualenv.");
        }
        // A free port can be taken between choosing it and moto binding it; then try another.
        for (int attempt = 1; ; attempt++) {
            int candidate = requestedPort == 0 ? DynamoDbLocal.freePort() : requestedPort;
            try {
                launch(executable, candidate);
                return;
            } catch (EmulatorStartException e) {
                boolean portTaken = e.getMessage().contains("already in use");
                if (requestedPort != 0 || attempt == PORT_ATTEMPTS || !portTaken) {
                    throw e;
                }
            }
        }
    }

    private void launch(Path executable, int candidate) {
        // moto_server's own main, through moto_server.py, which bounds what moto's SQS and SNS cost and keep.
        ProcessBuilder builder = new ProcessBuilder(
                python(executable).toString(), launcher().toString(), "-H", "127.0.0.1", "-p", Integer.toString(candidate))
                .redirectErrorStream(true);
        // Werkzeug/Flask print colour codes and buffer output without these.
        builder.environment().put("PYTHONUNBUFFERED", "1");
        builder.environment().put("NO_COLOR", "1");
        synchronized (output) {
            output.clear();
        }
        Process started;
        try {
            started = builder.start();
        } catch (IOException e) {
            throw new EmulatorStartException("could not run " + executable + ": " + e, e);
        }
        Thread drain = new Thread(() -> drain(started), "moto-server-output-" + candidate);
        drain.setDaemon(true);
        drain.start();
        Thread hook = new Thread(() -> destroy(started), "moto-server-shutdown-" + candidate);
        Runtime.getRuntime().addShutdownHook(hook);

        long deadline = System.nanoTime() + startupTimeout.toNanos();
        while (!answers(candidate)) {
            if (!started.isAlive()) {
                removeHook(hook);
                waitForDrain(drain);
                throw new EmulatorStartException("moto_server exited with code " + started.exitValue()
                        + " before answering on port " + candidate + "; its last output:\n" + lastOutput());
            }
            if (System.nanoTime() > deadline) {
                destroy(started);
                removeHook(hook);
                throw new EmulatorStartException("moto_server did not answer on http://127.0.0.1:" + candidate
                        + " within " + startupTimeout.toSeconds() + " s; its last output:\n" + lastOutput());
            }
            sleep(100);
        }
        process = started;
        shutdownHook = hook;
        port = candidate;
    }

    /** The virtualenv's python beside its moto_server. */
    private static Path python(Path motoServer) {
        Path bin = motoServer.getParent();
        Path windows = bin.resolve("python.exe");
        return Files.exists(windows) ? windows : bin.resolve("python");
    }

    /** moto_server.py (a resource of this module) as a file python can run, written once per JVM. */
    static synchronized Path launcher() {
        if (launcher == null) {
            try (InputStream in = MotoServer.class.getResourceAsStream("moto_server.py")) {
                if (in == null) {
                    throw new EmulatorStartException("moto_server.py is not on the classpath; build emulators with Maven.");
                }
                // "moto_server" in its name: the benchmarks find moto's process by it (BenchStack).
                Path file = Files.createTempFile("datalake-moto_server-", ".py");
                file.toFile().deleteOnExit();
                Files.write(file, in.readAllBytes());
                launcher = file;
            } catch (IOException e) {
                throw new EmulatorStartException("could not write moto's launcher to a temporary file: " + e, e);
            }
        }
        return launcher;
    }

    /** Ends moto and its descendants; its state is gone. Does nothing when it is not running. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        destroy(process);
        removeHook(shutdownHook);
        process = null;
        shutdownHook = null;
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** The exit status of a moto that was started and has exited (killed, or failed) without {@link #stop()}. */
    public synchronized Optional<Integer> exitValue() {
        return process == null || process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
    }

    /** The port of the running server. */
    public synchronized int port() {
        if (process == null) {
            throw new IllegalStateException("moto is not running; call start() first.");
        }
        return port;
    }

    /** {@code http://127.0.0.1:<port>}, for S3 (path style), SQS and SNS alike. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port());
    }

    /** Wipes every bucket, queue and topic (moto's {@code POST /moto-api/reset}). */
    public void reset() {
        try {
            HttpURLConnection connection = (HttpURLConnection) endpoint().resolve("/moto-api/reset").toURL().openConnection();
            connection.setRequestMethod("POST");
            connection.setConnectTimeout(5_000);
            connection.setReadTimeout(30_000);
            int status = connection.getResponseCode();
            connection.disconnect();
            if (status / 100 != 2) {
                throw new IllegalStateException("moto refused to reset: HTTP " + status);
            }
        } catch (IOException e) {
            throw new IllegalStateException("moto could not be reset at " + endpoint() + ": " + e, e);
        }
    }

    /** The last lines moto printed (requests and errors), for diagnosing failures. */
    public String lastOutput() {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    @Override
    public void close() {
        stop();
    }

    private void drain(Process source) {
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(source.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                synchronized (output) {
                    if (output.size() == OUTPUT_LINES_KEPT) {
                        output.removeFirst();
                    }
                    output.addLast(line);
                }
            }
        } catch (IOException e) {
            // The process ended; what was read is kept.
        }
    }

    private static boolean answers(int port) {
        try {
            HttpURLConnection connection =
                    (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/moto-api/").toURL().openConnection();
            connection.setConnectTimeout(500);
            connection.setReadTimeout(2_000);
            int status = connection.getResponseCode();
            connection.disconnect();
            return status > 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static void destroy(Process target) {
        // Collected first: once the parent is gone its children are re-parented and no longer listed.
        List<ProcessHandle> descendants = target.descendants().toList();
        descendants.forEach(ProcessHandle::destroy);
        target.destroy();
        try {
            if (!target.waitFor(10, TimeUnit.SECONDS)) {
                target.destroyForcibly();
                target.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            target.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The JVM is shutting down and runs the hook itself.
        }
    }

    private static void waitForDrain(Thread drain) {
        try {
            drain.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmulatorStartException("interrupted while waiting for moto_server to answer", e);
        }
    }
}
