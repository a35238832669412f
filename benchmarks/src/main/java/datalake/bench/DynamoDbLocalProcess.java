package datalake.bench;

import datalake.emulators.Emulators;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.dynamodb.services.local.main.ServerRunner;

/**
 * DynamoDB Local in a JVM of its own (so that the CPU time of each process is its own), in memory,
 * on a free port of this machine, for the end-to-end benchmarks.
 */
final class DynamoDbLocalProcess implements AutoCloseable {
    final Process process;
    final URI endpoint;

    private DynamoDbLocalProcess(Process process, URI endpoint) {
        this.process = process;
        this.endpoint = endpoint;
    }

    /** Starts it and waits until it answers. */
    static DynamoDbLocalProcess start() throws IOException {
        int port = freePort();
        Path natives = Path.of(System.getProperty("datalake.sqlite4java.dir", "target/native-libs")).toAbsolutePath();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Dsqlite4java.library.path=" + natives,
                "-cp", System.getProperty("java.class.path"), ServerRunner.class.getName(),
                "-inMemory", "-sharedDb", "-disableTelemetry", "-port", Integer.toString(port))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        DynamoDbLocalProcess started = new DynamoDbLocalProcess(process, URI.create("http://127.0.0.1:" + port));
        try (DynamoDbClient dynamo = Emulators.clientsFor(started.endpoint).build(DynamoDbClient.builder())) {
            started.await(dynamo);
        } catch (RuntimeException e) {
            started.close();
            throw e;
        }
        return started;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void await(DynamoDbClient dynamo) {
        for (int attempt = 0; ; attempt++) {
            try {
                dynamo.listTables();
                return;
            } catch (RuntimeException e) {
                if (attempt > 300 || !process.isAlive()) {
                    throw e;
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
