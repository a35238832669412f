package datalake.bench;

import datalake.emulators.DatalakeStack;
import datalake.emulators.Emulators;
import datalake.emulators.LocalEndpoints;
import datalake.emulators.MotoServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.dynamodb.services.local.main.ServerRunner;

/**
 * The local stack the end-to-end benchmarks run on: moto (S3, SQS, SNS with real S3 → SNS → SQS
 * notifications, raw delivery as the template subscribes), DynamoDB Local in a JVM of its own (so that
 * the CPU time of each process is its own), template.yaml's stack built on them, and clients of both.
 * Nothing is subscribed to the report topic: a queue would collect one message per file, and moto's SQS
 * costs O(queue depth) per message sent to a queue.
 */
final class BenchStack implements AutoCloseable {
    final MotoServer moto;
    final Process dynamoProcess;
    final URI dynamoEndpoint;
    final DynamoDbClient dynamo;
    final S3Client s3;
    final SqsClient sqs;
    final SnsClient sns;
    final DatalakeStack stack;
    /** moto's processes ("moto_server", not "moto": DynamoDB Local's command line may hold a path with "moto"). */
    final List<Long> motoPids;

    private BenchStack(MotoServer moto, Process dynamoProcess, URI dynamoEndpoint, String prefix) {
        this.moto = moto;
        this.dynamoProcess = dynamoProcess;
        this.dynamoEndpoint = dynamoEndpoint;
        this.dynamo = Emulators.clientsFor(dynamoEndpoint).build(DynamoDbClient.builder());
        awaitDynamoDb(dynamo, dynamoProcess);
        this.s3 = Emulators.clientsFor(moto.endpoint()).build(S3Client.builder().forcePathStyle(true));
        this.sqs = Emulators.clientsFor(moto.endpoint()).build(SqsClient.builder());
        this.sns = Emulators.clientsFor(moto.endpoint()).build(SnsClient.builder());
        this.stack = DatalakeStack.builder(new LocalEndpoints(dynamoEndpoint, moto.endpoint()))
                .prefix(DatalakeStack.uniquePrefix(prefix)).build();
        this.motoPids = ProcessCpu.pidsOf("moto_server");
    }

    /** Starts moto and DynamoDB Local and builds template.yaml's stack with a NamePrefix starting with {@code prefix}. */
    static BenchStack start(String prefix) throws IOException {
        MotoServer moto = new MotoServer();
        Process dynamoProcess = null;
        try {
            moto.start();
            int port = freePort();
            dynamoProcess = startDynamoDbLocal(port);
            return new BenchStack(moto, dynamoProcess, URI.create("http://127.0.0.1:" + port), prefix);
        } catch (IOException | RuntimeException e) {
            moto.close();
            if (dynamoProcess != null) {
                dynamoProcess.destroy();
            }
            throw e;
        }
    }

    /** CPU ticks of this JVM, moto and DynamoDB Local now. */
    ProcessCpu cpu() throws IOException {
        return ProcessCpu.read(motoPids, dynamoProcess.pid());
    }

    @Override
    public void close() {
        moto.close();
        dynamoProcess.destroy();
        try {
            dynamoProcess.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static Process startDynamoDbLocal(int port) throws IOException {
        Path natives = Path.of(System.getProperty("datalake.sqlite4java.dir", "target/native-libs")).toAbsolutePath();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Dsqlite4java.library.path=" + natives,
                "-cp", System.getProperty("java.class.path"), ServerRunner.class.getName(),
                "-inMemory", "-sharedDb", "-disableTelemetry", "-port", Integer.toString(port))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static void awaitDynamoDb(DynamoDbClient dynamo, Process process) {
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
}
