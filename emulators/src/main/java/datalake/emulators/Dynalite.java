package datalake.emulators;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.waiters.DynamoDbWaiter;

/**
 * dynalite, the open-source DynamoDB emulator (Apache-2.0, Node.js; in memory), as a child process on
 * 127.0.0.1, installed by scripts/lib/dynalite.sh and run through this module's {@code dynalite.js}, which
 * adds what this project needs of DynamoDB and dynalite 4.0.0 lacks (time to live; key sizes in UTF-8
 * bytes, index keys included). Shared across credentials and regions.
 *
 * <p>{@link #stop()} then {@link #start()} brings it back on the same port, so tests can simulate
 * DynamoDB being unreachable for a moment. The data does not survive: each start begins empty.
 */
public final class Dynalite implements AutoCloseable {
    /** node's start, the launcher's requires and the listen: about a second; 30 s on a loaded machine. */
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(30);

    private static Path launcher;

    /**
     * Waits until a table just created is ACTIVE, polling every 20 ms for at most 10 s. DynamoDB, and
     * dynalite, answer CreateTable while the table is CREATING and refuse its items until then; the SDK's
     * own waiter polls every 20 s.
     *
     * @throws software.amazon.awssdk.core.exception.SdkException when it is not ACTIVE within 10 s, or
     *     DescribeTable fails otherwise than with ResourceNotFoundException (the waiter's own errors)
     * @throws IllegalStateException when the waiter ends on an error it was told to stop at
     */
    public static void awaitActive(DynamoDbClient dynamoDb, String table) {
        try (DynamoDbWaiter waiter = DynamoDbWaiter.builder().client(dynamoDb).overrideConfiguration(o -> o
                .backoffStrategyV2(BackoffStrategy.fixedDelay(Duration.ofMillis(20))).maxAttempts(500)
                .waitTimeout(Duration.ofSeconds(10))).build()) {
            waiter.waitUntilTableExists(r -> r.tableName(table)).matched().exception().ifPresent(e -> {
                throw new IllegalStateException("table " + table + " did not become ACTIVE: " + e.getMessage(), e);
            });
        }
    }

    private final Path install;
    private final EmulatorProcess process;

    /** dynalite from the located install ({@code .dynalite} at the repository root, or {@code DATALAKE_DYNALITE}), on a free port. */
    public Dynalite() {
        this(0);
    }

    /** dynalite on {@code port}; 0 picks a free one at the first {@link #start()}, kept for restarts. */
    public Dynalite(int port) {
        this(ToolFolder.DYNALITE.locate(), port, DEFAULT_STARTUP_TIMEOUT);
    }

    /**
     * @param install the folder scripts/lib/dynalite.sh installed dynalite into (holding node_modules)
     * @param port the port, or 0 for a free one
     * @param startupTimeout how long {@link #start()} waits for dynalite to answer
     */
    public Dynalite(Path install, int port, Duration startupTimeout) {
        this.install = install;
        this.process = new EmulatorProcess("dynalite", candidate -> List.of(
                "node", launcher().toString(), "--host", "127.0.0.1", "--port", Integer.toString(candidate)),
                Map.of("NODE_PATH", install.resolve("node_modules").toString()), "/", port, startupTimeout);
    }

    /**
     * Starts dynalite and waits until it answers; does nothing when it runs already.
     *
     * @throws EmulatorNotInstalledException when dynalite is not installed
     * @throws RuntimeException when it exits or does not answer within the timeout
     */
    public void start() {
        if (!Files.isRegularFile(install.resolve("node_modules/dynalite/package.json"))) {
            throw new EmulatorNotInstalledException("dynalite not found in " + install.resolve("node_modules")
                    + "; run scripts/lib/dynalite.sh (scripts/test.sh and scripts/local.sh do it) to install it.");
        }
        process.start();
    }

    /** dynalite.js (a resource of this module) as a file node can run, written once per JVM. */
    private static synchronized Path launcher() {
        if (launcher == null) {
            launcher = EmulatorProcess.resourceFile("dynalite.js", "datalake-dynalite-", ".js");
        }
        return launcher;
    }

    /** Stops the server and drops its data; the port stays for a later {@link #start()}. */
    public void stop() {
        process.stop();
    }

    public boolean isRunning() {
        return process.isRunning();
    }

    /** The exit status of a dynalite that was started and has exited (killed, or failed) without {@link #stop()}. */
    public Optional<Integer> exitValue() {
        return process.exitValue();
    }

    /** The process id, for its CPU time (the benchmarks). */
    public long pid() {
        return process.pid();
    }

    /** The port; 0 until a free port has been chosen by the first {@link #start()}. */
    public int port() {
        return process.port();
    }

    /** {@code http://127.0.0.1:<port>}. */
    public URI endpoint() {
        return process.endpoint();
    }

    /** The last lines dynalite printed, for diagnosing failures. */
    public String lastOutput() {
        return process.lastOutput();
    }

    @Override
    public void close() {
        stop();
    }
}
