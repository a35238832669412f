package datalake.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.emulators.Deployment;
import datalake.emulators.Emulators;
import datalake.emulators.ResourceNames;
import datalake.emulators.SqsLambdaPoller;
import datalake.ingester.Ingester;
import datalake.ingester.IngesterClients;
import datalake.ingester.IngesterConfig;
import datalake.ingester.IngesterHandler;
import datalake.ingester.Telemetry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * One test's pipeline on the shared emulators, run as deployed: S3 notifies SNS, SNS delivers to the
 * ingest queue, {@link SqsLambdaPoller} feeds the ingester with Lambda's SQS semantics (batch item
 * failures stay on the queue, come back after the visibility timeout and move to the DLQ after
 * maxReceiveCount). The ingester's log lines are kept, to be checked.
 */
final class PipelineHarness implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String HASH = "0123456789abcdef0123456789abcdef";

    final Emulators aws;
    final Deployment deployment;
    final ConcurrentLinkedQueue<String> logLines = new ConcurrentLinkedQueue<>();
    private final List<Ingester> ingesters = new ArrayList<>();

    PipelineHarness(Emulators aws, String hint, Deployment.Options options, int visibilityTimeoutSeconds) {
        this.aws = aws;
        this.deployment = Deployment.create(aws, ResourceNames.unique(hint), options);
        aws.sqs().setQueueAttributes(r -> r.queueUrl(deployment.ingestQueueUrl()).attributes(Map.of(
                QueueAttributeName.VISIBILITY_TIMEOUT, Integer.toString(visibilityTimeoutSeconds))));
    }

    String bucket() {
        return deployment.names().bucket();
    }

    IngesterConfig config() {
        Map<String, String> env = new HashMap<>(deployment.environment());
        env.putAll(aws.endpointEnvironment());
        return IngesterConfig.fromEnvironment(env);
    }

    /** The ingester as IngesterHandler builds it for Lambda, on these clients, logging here. */
    IngesterHandler handler(S3Client s3, DynamoDbClient dynamoDb) {
        Ingester ingester = Ingester.forAws(config(), new IngesterClients(s3, dynamoDb, aws.sns(), aws.sqs()))
                .telemetry(new Telemetry(logLines::add, Clock.systemUTC()))
                .functionName("datalake-ingester")
                .build();
        synchronized (ingesters) {
            ingesters.add(ingester);
        }
        return new IngesterHandler(ingester);
    }

    SqsLambdaPoller poller(IngesterHandler handler) {
        return new SqsLambdaPoller(aws.sqs(), deployment.ingestQueueUrl(), deployment.ingestQueueArn(), deployment.names().region(),
                handler, 10, Duration.ofSeconds(30));
    }

    static String metadata(String what, String where, String id, long start, Long end) {
        return "{\"version\":0,\"start\":" + start + ",\"end\":" + end + ",\"path\":\"/data/" + id
                + ".bin\",\"work_id\":null,\"where\":\"" + where + "\",\"what\":\"" + what + "\",\"id\":\"" + id
                + "\",\"hash\":\"" + HASH + "\"}";
    }

    void put(S3Client s3, String key, String metadata) {
        s3.putObject(r -> r.bucket(bucket()).key(key).metadata(metadata == null ? Map.of() : Map.of("datalake", metadata)),
                RequestBody.fromString("content of " + key));
    }

    int visibleMessages(String queueUrl) {
        return Integer.parseInt(aws.sqs().getQueueAttributes(r -> r.queueUrl(queueUrl)
                .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                .attributes().get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
    }

    /** Waits until {@code count} messages are visible on the queue (S3 and SNS deliver asynchronously). */
    void awaitVisible(String queueUrl, int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (visibleMessages(queueUrl) < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + visibleMessages(queueUrl) + " of " + count + " messages on " + queueUrl);
            }
            Thread.sleep(100);
        }
    }

    /** Receives and deletes what is on a queue now (one receive of up to ten). */
    List<Message> drain(String queueUrl, int waitSeconds) {
        List<Message> messages = aws.sqs().receiveMessage(r -> r.queueUrl(queueUrl).maxNumberOfMessages(10)
                .waitTimeSeconds(waitSeconds).messageAttributeNames("All")).messages();
        if (!messages.isEmpty()) {
            List<software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
            for (int i = 0; i < messages.size(); i++) {
                entries.add(software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry.builder()
                        .id(Integer.toString(i)).receiptHandle(messages.get(i).receiptHandle()).build());
            }
            aws.sqs().deleteMessageBatch(r -> r.queueUrl(queueUrl).entries(entries));
        }
        return messages;
    }

    /** Every item of a table (of the records table: the records and the per-object items). */
    List<Map<String, AttributeValue>> items(String table) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        aws.dynamoDb().scanPaginator(r -> r.tableName(table)).items().forEach(items::add);
        return items;
    }

    /** The records of the records table, its per-object items left out. */
    List<Map<String, AttributeValue>> records() {
        List<Map<String, AttributeValue>> records = new ArrayList<>();
        for (Map<String, AttributeValue> item : items(deployment.names().recordsTable())) {
            if (!datalake.dynamodb.ObjectItems.isObjectItem(item)) {
                records.add(item);
            }
        }
        return records;
    }

    static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        synchronized (ingesters) {
            ingesters.forEach(Ingester::close);
        }
    }
}
