package datalake.local;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.emulators.AwsEndpoints;
import datalake.emulators.DatalakeStack;
import datalake.emulators.Emulators;
import datalake.emulators.SqsLambdaPoller;
import datalake.emulators.template.TemplateCopy;
import datalake.ingester.Ingester;
import datalake.ingester.IngesterClients;
import datalake.ingester.IngesterConfig;
import datalake.ingester.IngesterHandler;
import datalake.ingester.Telemetry;
import datalake.query.QueryConfig;
import datalake.query.QueryHandler;
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
 * One test's pipeline on the shared emulators, run as deployed, from a copy of template.yaml with a short
 * visibility timeout (so that redelivery takes seconds, not six minutes): S3 notifies SNS, SNS delivers
 * to the ingest queue, {@link SqsLambdaPoller} feeds the ingester with the template's event source
 * settings and Lambda's SQS semantics (batch item failures stay on the queue, come back after the
 * visibility timeout and move to the DLQ after maxReceiveCount). The bucket is made without versioning and
 * a queue reads the reports (test-side changes). The ingester and its poller sign as its role. The
 * ingester's log lines are kept, to be checked.
 */
final class PipelineHarness implements AutoCloseable {
    /** template.yaml's ingest queue visibility timeout, which a test replaces by a shorter one. */
    private static final String VISIBILITY_TIMEOUT =
            "VisibilityTimeout: !FindInMap [IngestQueueVisibility, !Ref IngestBatchingWindowSeconds, TimeoutSeconds]";
    static final ObjectMapper JSON = new ObjectMapper();
    static final String HASH = "0123456789abcdef0123456789abcdef";

    final Emulators aws;
    final DatalakeStack stack;
    /** The emulators as the ingester's role signs. */
    final AwsEndpoints ingesterAws;
    /** The test-side queue the report topic delivers to, raw. */
    final String reportQueueUrl;
    final ConcurrentLinkedQueue<String> logLines = new ConcurrentLinkedQueue<>();
    private final List<Ingester> ingesters = new ArrayList<>();

    /** A stack with these parameters, its ingest queue's visibility timeout this many seconds. */
    PipelineHarness(Emulators aws, String hint, Map<String, String> parameters, int visibilityTimeoutSeconds) {
        this(aws, hint, parameters, visibilityTimeoutSeconds, true);
    }

    /** The same, with a bucket that notifies nobody when {@code notifying} is false (the test sends the notifications). */
    PipelineHarness(Emulators aws, String hint, Map<String, String> parameters, int visibilityTimeoutSeconds,
            boolean notifying) {
        this.aws = aws;
        DatalakeStack.Builder builder = DatalakeStack.builder(aws).prefix(DatalakeStack.uniquePrefix(hint))
                .parameters(parameters)
                .template(TemplateCopy.ofRepositoryTemplate()
                        .replace(VISIBILITY_TIMEOUT, "VisibilityTimeout: " + visibilityTimeoutSeconds).write())
                .unversionedBucket();
        this.stack = (notifying ? builder : builder.bucketWithoutNotifications()).build();
        this.ingesterAws = stack.endpointsOf(DatalakeStack.INGESTER);
        this.reportQueueUrl = stack.subscribeReportQueue();
    }

    String bucket() {
        return stack.bucket();
    }

    IngesterConfig config() {
        return IngesterConfig.fromEnvironment(new HashMap<>(stack.ingester().environment()));
    }

    /** The ingester as IngesterHandler builds it for Lambda, on these clients (and its role's SNS and SQS), logging here. */
    IngesterHandler handler(S3Client s3, DynamoDbClient dynamoDb) {
        Ingester ingester = Ingester.forAws(config(), new IngesterClients(s3, dynamoDb, ingesterAws.sns(), ingesterAws.sqs()))
                .telemetry(new Telemetry(logLines::add, Clock.systemUTC()))
                .functionName(stack.ingester().functionName())
                .build();
        synchronized (ingesters) {
            ingesters.add(ingester);
        }
        return new IngesterHandler(ingester);
    }

    /** Lambda's poller of the template's event source mapping, signing as the ingester's role. */
    SqsLambdaPoller poller(RequestHandler<SQSEvent, SQSBatchResponse> handler) {
        return new SqsLambdaPoller(stack.pollerEndpoints().sqs(), stack.ingestEventSource(), handler, stack.ingester());
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
        for (Map<String, AttributeValue> item : items(stack.recordsTable())) {
            if (!datalake.dynamodb.ObjectItems.isObjectItem(item)) {
                records.add(item);
            }
        }
        return records;
    }

    /** The query function's handler on this stack, signing as its role. */
    QueryHandler queryHandler() {
        AwsEndpoints role = stack.endpointsOf(DatalakeStack.QUERY);
        return new QueryHandler(QueryConfig.fromEnvironment(stack.query().environment()), role.dynamoDb(), role.s3(),
                Emulators.presignerFor(aws.motoEndpoint(), stack.credentialsOf(DatalakeStack.QUERY)));
    }

    /** A GET of the files route with this query, as API Gateway hands it to the query function. */
    static APIGatewayV2HTTPEvent filesQuery(String rawQuery) {
        APIGatewayV2HTTPEvent event = new APIGatewayV2HTTPEvent();
        event.setRawPath("/v0/archive/files/");
        event.setRawQueryString(rawQuery);
        event.setHeaders(Map.of("host", "localhost"));
        event.setRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder().withMethod("GET").build())
                .withStage("$default").build());
        return event;
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
