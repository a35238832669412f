package datalake.emulators;

import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * moto's server mode (S3, SQS, SNS and their notifications) as a child process on 127.0.0.1, run from
 * the test virtualenv that scripts/lib/venv.sh installs. {@link #stop()} ends the process and its
 * descendants; a JVM shutdown hook does the same if nobody called it.
 */
public final class MotoServer implements AutoCloseable {
    /** How long to wait for moto to answer HTTP after starting it (its imports take a few seconds). */
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(60);

    private static Path launcher;

    private final Path venv;
    private final EmulatorProcess process;

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
        // moto_server's own main, through moto_server.py, which bounds what moto's SQS and SNS cost and keep.
        // Werkzeug/Flask print colour codes and buffer output without PYTHONUNBUFFERED and NO_COLOR.
        this.process = new EmulatorProcess("moto_server", candidate -> List.of(
                python(VirtualEnv.motoServer(venv)).toString(), launcher().toString(),
                "-H", "127.0.0.1", "-p", Integer.toString(candidate)),
                Map.of("PYTHONUNBUFFERED", "1", "NO_COLOR", "1"), "/moto-api/", port, startupTimeout);
    }

    /** The virtualenv this repository's tests use: see the README for how it is found. */
    public static Path defaultVirtualEnv() {
        return VirtualEnv.locate();
    }

    /**
     * Starts moto and waits until it answers; does nothing when it runs already.
     *
     * @throws EmulatorNotInstalledException when moto_server is not in the virtualenv
     * @throws RuntimeException when moto exits or does not answer within the timeout
     */
    public void start() {
        Path executable = VirtualEnv.motoServer(venv);
        if (!Files.isExecutable(executable)) {
            throw new EmulatorNotInstalledException("moto_server not found in " + executable.getParent()
                    + "; run scripts/lib/venv.sh (scripts/test.sh does it) to install the test virtualenv.");
        }
        process.start();
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
            // "moto_server" in its name: the benchmarks find moto's process by it (BenchStack).
            launcher = EmulatorProcess.resourceFile("moto_server.py", "datalake-moto_server-", ".py");
        }
        return launcher;
    }

    /** Ends moto and its descendants; its state is gone. Does nothing when it is not running. */
    public void stop() {
        process.stop();
    }

    public boolean isRunning() {
        return process.isRunning();
    }

    /** The exit status of a moto that was started and has exited (killed, or failed) without {@link #stop()}. */
    public Optional<Integer> exitValue() {
        return process.exitValue();
    }

    /** The port of the server, once started. */
    public int port() {
        if (process.port() == 0) {
            throw new IllegalStateException("moto is not running; call start() first.");
        }
        return process.port();
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
        } catch (java.io.IOException e) {
            throw new IllegalStateException("moto could not be reset at " + endpoint() + ": " + e, e);
        }
    }

    /** The last lines moto printed (requests and errors), for diagnosing failures. */
    public String lastOutput() {
        return process.lastOutput();
    }

    @Override
    public void close() {
        stop();
    }
}
