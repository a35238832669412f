package datalake.ingester;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.ObjectItems;
import datalake.dynamodb.ShardMapItem;
import datalake.dynamodb.RecordItems;
import datalake.emulators.AwsEndpoints;
import datalake.emulators.DatalakeStack;
import datalake.emulators.SqsMessages;
import datalake.records.DatalakeJson;
import datalake.records.Record;
import datalake.records.StatusReport;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * One test's stack of template.yaml on emulators (or LocalStack), and what a test does with it: put objects,
 * take the notifications S3 delivered from the ingest queue, invoke the handler with them as Lambda's SQS
 * poller would (deleting what the handler acknowledged), then read the table, the latest table, the
 * reports (from a raw SQS subscription to the report topic, a test-side addition) and the DLQ. The
 * handler's clients sign as the ingester's role ({@link #ingesterAws}), so its calls are recorded for the
 * IAM proof; the harness's own reads use the backend's.
 */
final class IngesterHarness implements AutoCloseable {
    private static final Duration RECEIVE_TIMEOUT = Duration.ofSeconds(20);
    /** Lambda's context as the handler sees it: a minute to go. */
    private static final int REMAINING_MILLIS = 60_000;

    final AwsEndpoints backend;
    final DatalakeStack stack;
    /** The emulators as the ingester's role signs. */
    final AwsEndpoints ingesterAws;
    /** The test-side queue the report topic delivers to, raw. */
    final String reportQueueUrl;
    final List<String> logLines = Collections.synchronizedList(new ArrayList<>());
    private final List<Ingester> ingesters = new ArrayList<>();

    private IngesterHarness(AwsEndpoints backend, DatalakeStack stack) {
        this.backend = backend;
        this.stack = stack;
        this.ingesterAws = stack.endpointsOf(DatalakeStack.INGESTER);
        this.reportQueueUrl = stack.subscribeReportQueue();
    }

    static IngesterHarness create(AwsEndpoints backend, String hint, StackSetup setup) {
        return new IngesterHarness(backend, setup.build(DatalakeStack.builder(backend).prefix(DatalakeStack.uniquePrefix(hint))));
    }

    static IngesterHarness create(AwsEndpoints backend, String hint) {
        return create(backend, hint, StackSetup.defaults());
    }

    String bucket() {
        return stack.bucket();
    }

    /** The ingester's environment as the template gives it (endpoints and role included), {@code changes} applied. */
    IngesterConfig config(UnaryOperator<Map<String, String>> changes) {
        Map<String, String> env = new HashMap<>(stack.ingester().environment());
        return IngesterConfig.fromEnvironment(changes.apply(env));
    }

    /** The backfill function's environment as the template gives it. */
    IngesterConfig backfillConfig() {
        return IngesterConfig.forBackfill(datalake.lambda.Environment.of(stack.backfill().environment()));
    }

    IngesterConfig config() {
        return config(env -> env);
    }

    /** The handler as Lambda builds it ({@link Ingester#forAws}), on the role's clients and this DynamoDB client. */
    IngesterHandler handler(IngesterConfig config, DynamoDbClient dynamoDb) {
        Ingester ingester = Ingester.forAws(config, new IngesterClients(ingesterAws.s3(), dynamoDb, ingesterAws.sns(),
                        ingesterAws.sqs()))
                .telemetry(new Telemetry(logLines::add, Clock.systemUTC()))
                .functionName("ingester-it")
                .build();
        ingesters.add(ingester);
        return new IngesterHandler(ingester);
    }

    IngesterHandler handler() {
        return handler(config(), ingesterAws.dynamoDb());
    }

    /** Uploads an object with the datalake metadata (or none, when null). */
    HeadObjectResponse put(String key, String metadata) {
        backend.s3().putObject(r -> r.bucket(bucket()).key(key)
                .metadata(metadata == null ? Map.of() : Map.of("datalake", metadata)),
                RequestBody.fromString("content of " + key));
        return backend.s3().headObject(r -> r.bucket(bucket()).key(key));
    }

    /** Sends a body to the ingest queue directly (a notification S3 would never send). */
    void send(String body) {
        backend.sqs().sendMessage(r -> r.queueUrl(stack.ingestQueueUrl()).messageBody(body));
    }

    /** The next {@code count} notifications on the ingest queue; S3's test events are deleted on the way. */
    List<Message> receive(int count) {
        return receive(stack.ingestQueueUrl(), count, true);
    }

    /**
     * The s3:TestEvent S3 sent when the bucket notification was configured. An emulator that sends
     * none gets the exact shape AWS sends (events/s3/test-event.json) put on the queue instead, so
     * that the scenario still checks the handler.
     */
    Message receiveTestEvent() {
        Message sent = findTestEvent(Duration.ofSeconds(10));
        if (sent != null) {
            return sent;
        }
        send(TestFiles.event("s3/test-event.json"));
        Message fallback = findTestEvent(RECEIVE_TIMEOUT);
        if (fallback == null) {
            throw new AssertionError("no s3:TestEvent arrived on " + stack.ingestQueueUrl());
        }
        return fallback;
    }

    private Message findTestEvent(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (Message message : receiveOnce(stack.ingestQueueUrl(), 10)) {
                if (isTestEvent(message)) {
                    return message;
                }
            }
        }
        return null;
    }

    /** Makes messages the handler gave back visible again at once (SQS would after the visibility timeout). */
    void expireVisibility(List<Message> messages) {
        for (Message message : messages) {
            backend.sqs().changeMessageVisibility(r -> r.queueUrl(stack.ingestQueueUrl())
                    .receiptHandle(message.receiptHandle()).visibilityTimeout(0));
        }
    }

    /** Invokes the handler with the messages as one batch; deletes those it acknowledged, as Lambda does. */
    Set<String> handle(IngesterHandler handler, List<Message> messages) {
        SQSEvent event = new SQSEvent();
        List<SQSEvent.SQSMessage> records = new ArrayList<>();
        for (Message message : messages) {
            records.add(SqsMessages.toLambda(message, stack.ingestQueueArn(), stack.region()));
        }
        event.setRecords(records);
        SQSBatchResponse response = handler.handleRequest(event, IngesterHandlerTest.context(REMAINING_MILLIS));
        Set<String> failed = new HashSet<>();
        response.getBatchItemFailures().forEach(f -> failed.add(f.getItemIdentifier()));
        for (Message message : messages) {
            if (!failed.contains(message.messageId())) {
                backend.sqs().deleteMessage(r -> r.queueUrl(stack.ingestQueueUrl()).receiptHandle(message.receiptHandle()));
            }
        }
        return failed;
    }

    Set<String> handle(List<Message> messages) {
        return handle(handler(), messages);
    }

    /** Every record in the records table. */
    List<Record> records() {
        List<Record> records = new ArrayList<>();
        for (Map<String, AttributeValue> item : items()) {
            records.add(RecordItems.fromItem(item));
        }
        return records;
    }

    /** The records of one object, by its key. */
    List<Record> recordsOf(String key) {
        String url = url(key);
        return records().stream().filter(r -> r.url().equals(url)).toList();
    }

    String url(String key) {
        return "s3://" + bucket() + "/" + key;
    }

    /** Every record item of the records table (the per-object items and the shard map left out). */
    List<Map<String, AttributeValue>> items() {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (Map<String, AttributeValue> item : allItems()) {
            if (!ObjectItems.isObjectItem(item) && !ShardMapItem.isShardMapItem(item)) {
                items.add(item);
            }
        }
        return items;
    }

    List<Map<String, AttributeValue>> allItems() {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        backend.dynamoDb().scanPaginator(r -> r.tableName(stack.recordsTable()).consistentRead(true))
                .items().forEach(items::add);
        return items;
    }

    /** The per-object entry of an object, or null. */
    ObjectEntry objectEntry(String key) {
        Map<String, AttributeValue> item = backend.dynamoDb().getItem(r -> r.tableName(stack.recordsTable())
                .key(ObjectItems.key(url(key))).consistentRead(true)).item();
        return item == null || item.isEmpty() ? null : ObjectItems.fromItem(item);
    }

    /** Deletes an object (a delete marker in a versioned bucket); returns the version id S3 answered. */
    String delete(String key) {
        return backend.s3().deleteObject(r -> r.bucket(bucket()).key(key)).versionId();
    }

    /** Puts on the ingest queue the notification S3 sends for an event moto does not notify. */
    void notify(String eventName, String key, String sequencer) {
        send(TestFiles.s3Event(eventName, bucket(), java.net.URLEncoder.encode(key, java.nio.charset.StandardCharsets.UTF_8)
                .replace("%2F", "/"), sequencer));
    }

    /** The latest table's record of what:where, or null. */
    Record latest(String what, String where) {
        Map<String, AttributeValue> item = backend.dynamoDb().getItem(r -> r.tableName(stack.latestTable())
                .key(Map.of(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS(what + ":" + where))).consistentRead(true))
                .item();
        return item == null || item.isEmpty() ? null : RecordItems.fromItem(item);
    }

    /** The next {@code count} status reports, with their SNS attributes (delivered raw, as SQS attributes). */
    List<ReceivedReport> reports(int count) {
        List<ReceivedReport> reports = new ArrayList<>();
        for (Message message : receive(reportQueueUrl, count, false)) {
            Map<String, String> attributes = new HashMap<>();
            message.messageAttributes().forEach((k, v) -> attributes.put(k, v.stringValue()));
            String action = null;
            try {
                action = new com.fasterxml.jackson.databind.ObjectMapper().readTree(message.body()).path("action").asText(null);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            reports.add(new ReceivedReport(DatalakeJson.parseReport(message.body()), attributes, action));
        }
        return reports;
    }

    /** The next {@code count} dead letters, with their attributes. */
    List<Message> deadLetters(int count) {
        return receive(stack.deadLetterQueueUrl(), count, false);
    }

    /**
     * Asserts that nothing more arrives on a queue within a couple of seconds. S3's test event does
     * not count: emulators that deliver asynchronously may deliver it late.
     */
    void assertEmpty(String queueUrl) {
        List<Message> more = new ArrayList<>();
        for (Message message : backend.sqs().receiveMessage(r -> r.queueUrl(queueUrl).maxNumberOfMessages(10)
                .waitTimeSeconds(2)).messages()) {
            if (!isTestEvent(message)) {
                more.add(message);
            }
        }
        assertEquals(List.of(), more.stream().map(Message::body).toList(), "unexpected messages on " + queueUrl);
    }

    /** A report as published: its body, its SNS attributes, and the body's {@code action}. */
    record ReceivedReport(StatusReport report, Map<String, String> attributes, String action) {
    }

    private List<Message> receive(String queueUrl, int count, boolean skipTestEvents) {
        List<Message> received = new ArrayList<>();
        long deadline = System.nanoTime() + RECEIVE_TIMEOUT.toNanos();
        while (received.size() < count) {
            if (System.nanoTime() > deadline) {
                fail("only " + received.size() + " of " + count + " messages arrived on " + queueUrl);
            }
            for (Message message : receiveOnce(queueUrl, Math.min(10, count - received.size()))) {
                if (skipTestEvents && isTestEvent(message)) {
                    backend.sqs().deleteMessage(r -> r.queueUrl(queueUrl).receiptHandle(message.receiptHandle()));
                } else {
                    received.add(message);
                }
            }
        }
        return received;
    }

    private List<Message> receiveOnce(String queueUrl, int max) {
        return backend.sqs().receiveMessage(r -> r.queueUrl(queueUrl).maxNumberOfMessages(max).waitTimeSeconds(1)
                .visibilityTimeout(30)
                .messageSystemAttributeNames(MessageSystemAttributeName.ALL)
                .messageAttributeNames("All")).messages();
    }

    private static boolean isTestEvent(Message message) {
        try {
            return NotificationParser.parse(message.body()).testEvent();
        } catch (NotificationException e) {
            return false;
        }
    }

    @Override
    public void close() {
        ingesters.forEach(Ingester::close);
    }
}
