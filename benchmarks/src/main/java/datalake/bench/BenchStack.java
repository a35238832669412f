package datalake.bench;

import datalake.emulators.DatalakeStack;
import datalake.emulators.Dynalite;
import datalake.emulators.Emulators;
import datalake.emulators.LocalEndpoints;
import datalake.emulators.MotoServer;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The local stack the end-to-end benchmarks run on: moto (S3, SQS, SNS with real S3 → SNS → SQS
 * notifications, raw delivery as the template subscribes), dynalite (DynamoDB; each a process of its own,
 * so that the CPU time of each process is its own), template.yaml's stack built on them, and clients of both.
 * Nothing is subscribed to the report topic: a queue would collect one message per file, and moto's SQS
 * costs O(queue depth) per message sent to a queue.
 */
final class BenchStack implements AutoCloseable {
    final MotoServer moto;
    final Dynalite dynalite;
    final URI dynamoEndpoint;
    final DynamoDbClient dynamo;
    final S3Client s3;
    final SqsClient sqs;
    final SnsClient sns;
    final DatalakeStack stack;
    /** moto's processes ("moto_server", not "moto": another command line may hold a path with "moto"). */
    final List<Long> motoPids;

    private BenchStack(MotoServer moto, Dynalite dynalite, String prefix) {
        this.moto = moto;
        this.dynalite = dynalite;
        this.dynamoEndpoint = dynalite.endpoint();
        this.dynamo = Emulators.clientsFor(dynamoEndpoint).build(DynamoDbClient.builder());
        this.s3 = Emulators.clientsFor(moto.endpoint()).build(S3Client.builder().forcePathStyle(true));
        this.sqs = Emulators.clientsFor(moto.endpoint()).build(SqsClient.builder());
        this.sns = Emulators.clientsFor(moto.endpoint()).build(SnsClient.builder());
        this.stack = DatalakeStack.builder(new LocalEndpoints(dynamoEndpoint, moto.endpoint()))
                .prefix(DatalakeStack.uniquePrefix(prefix)).build();
        this.motoPids = ProcessCpu.pidsOf("moto_server");
    }

    /** Starts moto and dynalite and builds template.yaml's stack with a NamePrefix starting with {@code prefix}. */
    static BenchStack start(String prefix) {
        MotoServer moto = new MotoServer();
        Dynalite dynalite = new Dynalite();
        try {
            moto.start();
            dynalite.start();
            return new BenchStack(moto, dynalite, prefix);
        } catch (RuntimeException e) {
            moto.close();
            dynalite.close();
            throw e;
        }
    }

    /** CPU ticks of this JVM, moto and dynalite now. */
    ProcessCpu cpu() throws IOException {
        return ProcessCpu.read(motoPids, dynalite.pid());
    }

    @Override
    public void close() {
        moto.close();
        dynalite.close();
    }
}
