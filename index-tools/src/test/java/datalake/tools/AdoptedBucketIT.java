package datalake.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.emulators.AwsEndpoints;
import datalake.emulators.DatalakeStack;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.emulators.SqsLambdaPoller;
import datalake.ingester.Ingester;
import datalake.ingester.IngesterClients;
import datalake.ingester.IngesterConfig;
import datalake.ingester.IngesterHandler;
import datalake.ingester.Telemetry;
import datalake.lambda.Environment;
import datalake.records.Record;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.Event;
import software.amazon.awssdk.services.s3.model.GetBucketNotificationConfigurationResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.QueueConfiguration;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * A bucket that existed before the stack (README, "Adopting an existing bucket"), on moto and dynalite: it
 * holds datalake files and notifies a consumer of its own; the stack is built with ExistingBucketName,
 * scripts/adopt.sh's switch sends the bucket's events to EventBridge too, an operator holding
 * IndexOperatorPolicy backfills it, and the template's rule then brings a new upload and a delete to the
 * ingester. The bucket's own notification keeps working, and the stack made no bucket of its own.
 */
@ExtendWith(EmulatorsExtension.class)
class AdoptedBucketIT {
    private static final Emulators AWS = Emulators.shared();

    @Test
    void anAdoptedBucketIsBackfilledThenFollowedAndKeepsItsOwnNotifications() throws Exception {
        // given a bucket of the team's, with datalake files, a file without metadata, and a consumer it notifies
        String bucket = "team-data-" + UUID.randomUUID().toString().substring(0, 8);
        AWS.s3().createBucket(r -> r.bucket(bucket));
        put(bucket, "2015/old-1.log", ToolsHarness.metadata("host-a", "old1", ToolsHarness.START));
        put(bucket, "2015/old-2.log", ToolsHarness.metadata("host-b", "old2", ToolsHarness.START + 1));
        put(bucket, "notes.txt", null);
        String consumerUrl = AWS.sqs().createQueue(r -> r.queueName(bucket + "-consumer")).queueUrl();
        String consumerArn = AWS.sqs().getQueueAttributes(r -> r.queueUrl(consumerUrl)
                .attributeNames(QueueAttributeName.QUEUE_ARN)).attributes().get(QueueAttributeName.QUEUE_ARN);
        QueueConfiguration consumer = QueueConfiguration.builder().id("team-consumer").queueArn(consumerArn)
                .events(Event.S3_OBJECT_CREATED).build();
        AWS.s3().putBucketNotificationConfiguration(r -> r.bucket(bucket)
                .notificationConfiguration(n -> n.queueConfigurations(consumer)));

        // when the stack adopts it, and the bucket's events are switched on for EventBridge
        DatalakeStack stack = DatalakeStack.builder(AWS).prefix(DatalakeStack.uniquePrefix("adopt")).adopting(bucket)
                .build();
        assertEquals(bucket, stack.bucket());
        assertEquals("s3://" + bucket, stack.resolved().outputs().get("StorageUrl"));
        assertThrows(NoSuchBucketException.class, () -> AWS.s3().headBucket(r -> r.bucket(
                stack.prefix() + "-" + stack.resolved().accountId() + "-" + stack.region())));
        ByteArrayOutputStream adoptOut = new ByteArrayOutputStream();
        assertEquals(0, AdoptCommand.run(new String[] {"s3://" + bucket}, Environment.of(AWS.endpointEnvironment()),
                env -> AWS.s3Clients().build(software.amazon.awssdk.services.s3.S3Client.builder().forcePathStyle(true)),
                new PrintStream(adoptOut, true, StandardCharsets.UTF_8), System.err));
        assertTrue(adoptOut.toString(StandardCharsets.UTF_8).contains("1 other notification configurations are unchanged"),
                adoptOut.toString(StandardCharsets.UTF_8));

        // then the team's configuration is still there (moto's answer omits EventBridgeConfiguration, S3's
        // has it: that delivery is on shows below, where the ingester follows the bucket)
        GetBucketNotificationConfigurationResponse configuration = AWS.s3().getBucketNotificationConfiguration(
                r -> r.bucket(bucket));
        assertEquals(List.of(consumerArn), configuration.queueConfigurations().stream().map(QueueConfiguration::queueArn)
                .toList());

        // when an operator holding IndexOperatorPolicy backfills it (scripts/backfill.sh's code path)
        AwsEndpoints operator = stack.endpointsOf(DatalakeStack.INDEX_OPERATOR);
        Map<String, String> env = new HashMap<>(stack.backfill().environment());
        env.putAll(operator.endpointEnvironment());
        IngesterConfig backfillConfig = IngesterConfig.forBackfill(Environment.of(env));
        Backfill.Result backfilled;
        try (Ingester tools = Ingester.forAws(backfillConfig, new IngesterClients(operator.s3(), operator.dynamoDb(), null,
                null)).telemetry(Telemetry.discarding()).build()) {
            backfilled = new Backfill(operator.s3(), tools, Clock.systemUTC()).run(new Backfill.Options(
                    Target.parse("s3://" + bucket), null, 1000, 2, 10), () -> false);
        }

        // then the files already there are indexed, the one without metadata skipped
        assertEquals(2, backfilled.indexed());
        assertEquals(1, backfilled.withoutMetadata());
        assertEquals(0, backfilled.failed());
        assertEquals(Set.of("s3://" + bucket + "/2015/old-1.log", "s3://" + bucket + "/2015/old-2.log"),
                urls(stack));

        // and the same operator may stage a Batch Operations manifest of it, as the README's create-job reads it
        String operations = stack.resolved().outputs().get("OperationsBucketName");
        String manifest = bucket + ",2015/old-1.log\n" + bucket + ",2015/old-2.log\n";
        operator.s3().putObject(r -> r.bucket(operations).key("manifests/objects.csv"), RequestBody.fromString(manifest));
        assertFalse(operator.s3().headObject(r -> r.bucket(operations).key("manifests/objects.csv")).eTag().isEmpty());

        // when a file is uploaded and an old one deleted, with the ingester following the ingest queue
        AwsEndpoints ingesterAws = stack.endpointsOf(DatalakeStack.INGESTER);
        IngesterConfig ingesterConfig = IngesterConfig.fromEnvironment(new HashMap<>(stack.ingester().environment()));
        try (Ingester ingester = Ingester.forAws(ingesterConfig, new IngesterClients(ingesterAws.s3(), ingesterAws.dynamoDb(),
                        ingesterAws.sns(), ingesterAws.sqs())).telemetry(Telemetry.discarding()).build();
                SqsLambdaPoller poller = new SqsLambdaPoller(stack.pollerEndpoints().sqs(), stack.ingestEventSource(),
                        new IngesterHandler(ingester), stack.ingester())) {
            poller.start();
            put(bucket, "2024/new.log", ToolsHarness.metadata("host-c", "new", ToolsHarness.START + 2));
            AWS.s3().deleteObject(r -> r.bucket(bucket).key("2015/old-1.log"));

            // then the index follows: the new file in, the deleted one out
            Set<String> expected = Set.of("s3://" + bucket + "/2015/old-2.log", "s3://" + bucket + "/2024/new.log");
            await(() -> expected.equals(urls(stack)), Duration.ofSeconds(30), () -> "indexed: " + urls(stack));
        }

        // and the team's consumer still got its notification of the upload
        List<Message> received = AWS.sqs().receiveMessage(r -> r.queueUrl(consumerUrl).maxNumberOfMessages(10)
                .waitTimeSeconds(2)).messages();
        // (S3 form-encodes the key: 2024%2Fnew.log)
        assertTrue(received.stream().anyMatch(m -> m.body().contains("\"configurationId\": \"team-consumer\"")
                && m.body().contains("new.log")), "the consumer's messages: " + received);
        assertFalse(received.stream().anyMatch(m -> m.body().contains("detail-type")), "only S3's own notifications");
    }

    private static void put(String bucket, String key, String metadata) {
        AWS.s3().putObject(r -> r.bucket(bucket).key(key).metadata(metadata == null ? Map.of() : Map.of("datalake", metadata)),
                RequestBody.fromString("content of " + key));
    }

    private static Set<String> urls(DatalakeStack stack) {
        Set<String> urls = new TreeSet<>();
        for (var item : AWS.dynamoDb().scanPaginator(r -> r.tableName(stack.recordsTable()).consistentRead(true)).items()) {
            if (!datalake.dynamodb.ObjectItems.isObjectItem(item) && !datalake.dynamodb.ShardMapItem.isShardMapItem(item)) {
                Record record = datalake.dynamodb.RecordItems.fromItem(item);
                urls.add(record.url());
            }
        }
        return urls;
    }

    private static void await(Supplier<Boolean> condition, Duration timeout, Supplier<String> state)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.get()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not reached within " + timeout + ": " + state.get());
            }
            Thread.sleep(200);
        }
    }
}
