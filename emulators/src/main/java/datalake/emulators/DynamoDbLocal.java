package datalake.emulators;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * AWS's DynamoDB Local, in-process, as an HTTP server on one port. In-memory and shared across
 * credentials and regions ({@code -inMemory -sharedDb}); telemetry off.
 *
 * <p>{@link #stop()} then {@link #start()} brings it back on the same port, so tests can simulate
 * DynamoDB being unreachable for a moment. The data does not survive: each start begins empty.
 *
 * <p>Jetty inside DynamoDB Local listens on every interface (it has no host option); {@link #endpoint()}
 * uses 127.0.0.1. sqlite4java's native library must be on disk: see {@code emulators/README.md}.
 */
public final class DynamoDbLocal implements AutoCloseable {
    private final int requestedPort;
    private int port;
    private DynamoDBProxyServer server;

    /** A server on a free port, chosen at the first {@link #start()} and kept for restarts. */
    public DynamoDbLocal() {
        this(0);
    }

    /** A server on {@code port}; 0 picks a free one at the first {@link #start()}. */
    public DynamoDbLocal(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not between 0 and 65535.");
        }
        this.requestedPort = port;
        this.port = port;
    }

    /** Starts the server; does nothing when it runs already. */
    public synchronized void start() {
        if (server != null) {
            return;
        }
        Sqlite4java.configure();
        if (port == 0) {
            port = freePort();
        }
        DynamoDBProxyServer created;
        try {
            created = ServerRunner.createServerFromCommandLineArgs(
                    new String[] {"-inMemory", "-sharedDb", "-disableTelemetry", "-port", Integer.toString(port)});
            created.start();
        } catch (Exception e) {
            throw new EmulatorStartException("DynamoDB Local could not start on port " + port
                    + (requestedPort == 0 ? "" : " (is another process using it?)") + ": " + e, e);
        }
        server = created;
    }

    /** Stops the server and drops its data; the port stays reserved for a later {@link #start()}. */
    public synchronized void stop() {
        if (server == null) {
            return;
        }
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("DynamoDB Local on port " + port + " did not stop cleanly: " + e, e);
        } finally {
            server = null;
        }
    }

    public synchronized boolean isRunning() {
        return server != null;
    }

    /** The port; 0 until a free port has been chosen by the first {@link #start()}. */
    public synchronized int port() {
        return port;
    }

    /** {@code http://127.0.0.1:<port>}. */
    public synchronized URI endpoint() {
        if (port == 0) {
            throw new IllegalStateException("DynamoDB Local has no port yet; call start() first.");
        }
        return URI.create("http://127.0.0.1:" + port);
    }

    @Override
    public void close() {
        stop();
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new EmulatorStartException("no free TCP port on 127.0.0.1: " + e, e);
        }
    }
}
