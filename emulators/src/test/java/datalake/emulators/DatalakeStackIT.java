package datalake.emulators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.emulators.stack.ApiSettings;
import datalake.emulators.stack.FunctionSettings;
import datalake.emulators.stack.SqsEventSource;
import datalake.emulators.template.TemplateCopy;
import datalake.emulators.template.TemplateException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.Event;
import software.amazon.awssdk.services.s3.model.EventBridgeConfiguration;
import software.amazon.awssdk.services.s3.model.QueueConfiguration;
import software.amazon.awssdk.services.s3.model.GetBucketNotificationConfigurationResponse;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * template.yaml's stack, built on moto and dynalite from the SAM transform of the template: every
 * resource the emulators hold has the template's settings, the functions get the template's environment,
 * the event source and the API their settings, and a copy of the template with other values gives a stack
 * with those values.
 */
@ExtendWith(EmulatorsExtension.class)
class DatalakeStackIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** template.yaml's ingest queue visibility timeout, which a test replaces by a shorter one. */
    private static final String VISIBILITY_TIMEOUT =
            "VisibilityTimeout: !FindInMap [IngestQueueVisibility, !Ref IngestBatchingWindowSeconds, TimeoutSeconds]";
    static final Emulators AWS = Emulators.shared();

    @Test
    void theQueuesTopicsBucketAndTablesHaveTheTemplatesSettings(DynamoDbClient dynamoDb, SqsClient sqs, SnsClient sns,
            S3Client s3) throws IOException {
        // When the template is built with a prefix of its own
        DatalakeStack stack = DatalakeStack.unique(AWS, "stack");
        String prefix = stack.prefix();

        // Then the names are the template's, with the prefix
        assertEquals(prefix + "-records", stack.recordsTable());
        assertEquals(prefix + "-latest", stack.latestTable());
        assertEquals(prefix + "-123456789012-us-east-1", stack.bucket());
        assertEquals("arn:aws:sqs:us-east-1:123456789012:" + prefix + "-ingest", stack.ingestQueueArn());

        // and the ingest queue has the template's attributes: 6x the ingester's timeout plus the batching
        // window (1 s), 4 days, 256 KB, redrive
        Map<QueueAttributeName, String> ingest = sqs.getQueueAttributes(r -> r.queueUrl(stack.ingestQueueUrl())
                .attributeNames(QueueAttributeName.ALL)).attributes();
        assertEquals("361", ingest.get(QueueAttributeName.VISIBILITY_TIMEOUT));
        assertEquals("345600", ingest.get(QueueAttributeName.MESSAGE_RETENTION_PERIOD));
        assertEquals("262144", ingest.get(QueueAttributeName.MAXIMUM_MESSAGE_SIZE));
        JsonNode redrive = JSON.readTree(ingest.get(QueueAttributeName.REDRIVE_POLICY));
        assertEquals("arn:aws:sqs:us-east-1:123456789012:" + prefix + "-ingest-dlq", redrive.path("deadLetterTargetArn").asText());
        assertEquals(5, redrive.path("maxReceiveCount").asInt());
        assertEquals("1209600", sqs.getQueueAttributes(r -> r.queueUrl(stack.deadLetterQueueUrl())
                .attributeNames(QueueAttributeName.MESSAGE_RETENTION_PERIOD)).attributes()
                .get(QueueAttributeName.MESSAGE_RETENTION_PERIOD));

        // and the upload topic delivers raw to the ingest queue
        var subscriptions = sns.listSubscriptionsByTopic(r -> r.topicArn(stack.uploadTopicArn())).subscriptions();
        assertEquals(List.of(stack.ingestQueueArn()), subscriptions.stream().map(s -> s.endpoint()).toList());
        assertEquals("true", sns.getSubscriptionAttributes(r -> r.subscriptionArn(subscriptions.get(0).subscriptionArn()))
                .attributes().get("RawMessageDelivery"));
        assertTrue(sns.listSubscriptionsByTopic(r -> r.topicArn(stack.reportTopicArn())).subscriptions().isEmpty(),
                "nobody reads the reports unless a test subscribes");

        // and the bucket is versioned and notifies creations, removals and expirations to the upload topic
        assertEquals(BucketVersioningStatus.ENABLED, s3.getBucketVersioning(r -> r.bucket(stack.bucket())).status());
        GetBucketNotificationConfigurationResponse notifications =
                s3.getBucketNotificationConfiguration(r -> r.bucket(stack.bucket()));
        assertEquals(List.of(Event.S3_OBJECT_CREATED, Event.S3_OBJECT_REMOVED, Event.S3_LIFECYCLE_EXPIRATION),
                notifications.topicConfigurations().stream().flatMap(c -> c.events().stream()).toList());
        assertTrue(notifications.topicConfigurations().stream().allMatch(c -> c.topicArn().equals(stack.uploadTopicArn())));

        // and the tables have the template's keys, index and TTL
        TableDescription records = dynamoDb.describeTable(r -> r.tableName(stack.recordsTable())).table();
        assertEquals(List.of(key("time_index_key", KeyType.HASH), key("range_key", KeyType.RANGE)), records.keySchema());
        assertEquals(BillingMode.PAY_PER_REQUEST, records.billingModeSummary().billingMode());
        assertEquals("work-id-index", records.globalSecondaryIndexes().get(0).indexName());
        assertEquals(List.of(key("work_id_index_key", KeyType.HASH), key("range_key", KeyType.RANGE)),
                records.globalSecondaryIndexes().get(0).keySchema());
        assertEquals(ProjectionType.ALL, records.globalSecondaryIndexes().get(0).projection().projectionType());
        assertEquals(TimeToLiveStatus.ENABLED, dynamoDb.describeTimeToLive(r -> r.tableName(stack.recordsTable()))
                .timeToLiveDescription().timeToLiveStatus());
        assertEquals(List.of(key("what_where_key", KeyType.HASH)),
                dynamoDb.describeTable(r -> r.tableName(stack.latestTable())).table().keySchema());
    }

    @Test
    void theFunctionsEventSourceAndApiHaveTheTemplatesSettings() {
        DatalakeStack stack = DatalakeStack.builder(AWS).prefix(DatalakeStack.uniquePrefix("settings"))
                .parameter("RetentionDays", "30").build();

        // The ingester's environment: the template's variables resolved, then the emulators' endpoints
        FunctionSettings ingester = stack.ingester();
        Map<String, String> env = ingester.environment();
        assertEquals(stack.recordsTable(), env.get("DATALAKE_DYNAMODB_TABLE"));
        assertEquals(stack.latestTable(), env.get("DATALAKE_LATEST_TABLE"));
        assertEquals(stack.reportTopicArn(), env.get("DATALAKE_REPORT_TOPIC_ARN"));
        assertEquals(stack.deadLetterQueueUrl(), env.get("DATALAKE_DLQ_URL"));
        assertEquals(stack.storageUrl(), env.get("DATALAKE_STORAGE_URL"));
        assertEquals("5", env.get("DATALAKE_MAX_RECEIVE_COUNT"));
        assertEquals("10", env.get("DATALAKE_INGEST_BATCH_SIZE"), "IngestBatchSize, which the event source reads too");
        assertEquals("30", env.get("DATALAKE_RETENTION_DAYS"));
        assertEquals(stack.prefix() + "-ingester", env.get("AWS_LAMBDA_FUNCTION_NAME"));
        assertEquals(AWS.motoEndpoint().toString(), env.get("AWS_ENDPOINT_URL_SQS"));
        assertTrue(env.get("AWS_ACCESS_KEY_ID").endsWith("IngesterFunction"), "the ingester signs as its role");
        assertEquals(Duration.ofSeconds(60), ingester.timeout());
        assertEquals("datalake.ingester.IngesterHandler::handleRequest", ingester.handler());
        // and the query function has no report topic, no retention
        assertFalse(stack.query().environment().containsKey("DATALAKE_REPORT_TOPIC_ARN"));
        assertFalse(stack.query().environment().containsKey("DATALAKE_RETENTION_DAYS"));

        // The SQS trigger
        SqsEventSource source = stack.ingestEventSource();
        assertEquals(stack.ingestQueueUrl(), source.queueUrl());
        assertEquals(10, source.batchSize());
        assertEquals(Duration.ofSeconds(1), source.batchingWindow());
        assertEquals(10, source.maximumConcurrency());
        assertTrue(source.reportBatchItemFailures());

        // The API: one $default route to the query function, IAM-authorised
        ApiSettings api = stack.api();
        assertEquals(1, api.routes().size());
        ApiSettings.Route route = api.routes().get(0);
        assertEquals("$default", route.routeKey());
        assertEquals(DatalakeStack.QUERY, route.function());
        assertEquals("AWS_IAM", route.authorization());
        assertEquals(route, api.route("GET", "/v0/archive/files/").orElseThrow());
    }

    @Test
    void aCopyOfTheTemplateWithOtherValuesGivesAStackWithThem(SqsClient sqs) throws IOException {
        // Given a copy of template.yaml with another visibility timeout, maxReceiveCount and batch size
        Path copy = TemplateCopy.ofRepositoryTemplate()
                .replace(VISIBILITY_TIMEOUT, "VisibilityTimeout: 45")
                .replace("maxReceiveCount: !Ref IngestMaxReceiveCount", "maxReceiveCount: 7")
                .replace("BatchSize: !Ref IngestBatchSize", "BatchSize: 4")
                .write();

        // When a stack is built from it
        DatalakeStack stack = DatalakeStack.builder(AWS).prefix(DatalakeStack.uniquePrefix("copy")).template(copy).build();

        // Then the queue and the event source follow the copy
        Map<QueueAttributeName, String> ingest = sqs.getQueueAttributes(r -> r.queueUrl(stack.ingestQueueUrl())
                .attributeNames(QueueAttributeName.VISIBILITY_TIMEOUT, QueueAttributeName.REDRIVE_POLICY)).attributes();
        assertEquals("45", ingest.get(QueueAttributeName.VISIBILITY_TIMEOUT));
        assertEquals(7, JSON.readTree(ingest.get(QueueAttributeName.REDRIVE_POLICY)).path("maxReceiveCount").asInt());
        assertEquals(4, stack.ingestEventSource().batchSize());

        // and the local poller takes four messages a batch (six sent, and the s3:TestEvent S3 sent through
        // the upload topic when the bucket's notification was configured)
        for (int i = 0; i < 6; i++) {
            int n = i;
            sqs.sendMessage(r -> r.queueUrl(stack.ingestQueueUrl()).messageBody("{\"n\":" + n + "}"));
        }
        List<Integer> batches = new java.util.concurrent.CopyOnWriteArrayList<>();
        SqsLambdaPoller poller = new SqsLambdaPoller(stack.pollerEndpoints().sqs(),
                stack.ingestEventSource().withBatchingWindow(Duration.ofSeconds(2)), (event, context) -> {
                    batches.add(event.getRecords().size());
                    return new com.amazonaws.services.lambda.runtime.events.SQSBatchResponse(List.of());
                }, stack.ingester());
        int taken = 0;
        while (taken < 7) {
            taken += poller.pollOnce(2);
        }
        assertEquals(List.of(4, 3), batches);
    }

    @Test
    void withProvisionedBillingTheTablesAndTheGsiAreMadeAtTheSeedNotTheMinimum(DynamoDbClient dynamoDb) {
        // When the stack is built with the provisioned billing mode and minimum capacities of its own
        DatalakeStack stack = DatalakeStack.builder(AWS).prefix(DatalakeStack.uniquePrefix("provisioned"))
                .parameters(Map.of("TableBillingMode", "PROVISIONED", "TableMinWriteCapacity", "7",
                        "TableMinReadCapacity", "3"))
                .tablesOnly().build();

        // Then dynalite holds the tables and the GSI provisioned at the template's seed (5); the minimums are
        // the scalable targets' (no Application Auto Scaling locally: BillingModeTest checks them)
        TableDescription records = dynamoDb.describeTable(r -> r.tableName(stack.recordsTable())).table();
        TableDescription latest = dynamoDb.describeTable(r -> r.tableName(stack.latestTable())).table();
        for (var throughput : List.of(records.provisionedThroughput(), latest.provisionedThroughput(),
                records.globalSecondaryIndexes().get(0).provisionedThroughput())) {
            assertEquals(5L, throughput.readCapacityUnits(), throughput.toString());
            assertEquals(5L, throughput.writeCapacityUnits(), throughput.toString());
        }
        assertTrue(records.billingModeSummary() == null
                || records.billingModeSummary().billingMode() == BillingMode.PROVISIONED, records.toString());
    }

    @Test
    void rebuildingAStackUpdatesItsTablesBillingModeAndCapacities(DynamoDbClient dynamoDb) {
        // Given a stack whose tables are on demand
        String prefix = DatalakeStack.uniquePrefix("update");
        DatalakeStack onDemand = DatalakeStack.builder(AWS).prefix(prefix).tablesOnly().build();
        assertEquals(BillingMode.PAY_PER_REQUEST, dynamoDb.describeTable(r -> r.tableName(onDemand.recordsTable()))
                .table().billingModeSummary().billingMode());

        // When it is built again with provisioned tables, as a stack update
        DatalakeStack.builder(AWS).prefix(prefix).tablesOnly().parameters(Map.of("TableBillingMode", "PROVISIONED",
                "TableMinWriteCapacity", "4", "TableMinReadCapacity", "2")).build();

        // Then the tables and the GSI have the new billing mode and the template's starting capacities (the
        // minimums go to auto scaling's targets, which the local stack does not run)
        TableDescription records = dynamoDb.describeTable(r -> r.tableName(onDemand.recordsTable())).table();
        assertEquals(BillingMode.PROVISIONED, records.billingModeSummary().billingMode());
        for (var throughput : List.of(records.provisionedThroughput(),
                records.globalSecondaryIndexes().get(0).provisionedThroughput())) {
            assertEquals(5L, throughput.readCapacityUnits(), throughput.toString());
            assertEquals(5L, throughput.writeCapacityUnits(), throughput.toString());
        }

        // and back on demand when built again with the defaults
        DatalakeStack.builder(AWS).prefix(prefix).tablesOnly().build();
        assertEquals(BillingMode.PAY_PER_REQUEST, dynamoDb.describeTable(r -> r.tableName(onDemand.latestTable()))
                .table().billingModeSummary().billingMode());
    }

    @Test
    void anExistingTableWithOtherIndexesIsRefusedNotKeptAsItWas(DynamoDbClient dynamoDb) {
        // Given a records table of the stack's name without the template's work-id index
        String prefix = DatalakeStack.uniquePrefix("indexes");
        String table = prefix + "-records";
        dynamoDb.createTable(r -> r.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("time_index_key").attributeType("S"),
                        a -> a.attributeName("range_key").attributeType("S"))
                .keySchema(k -> k.attributeName("time_index_key").keyType(KeyType.HASH),
                        k -> k.attributeName("range_key").keyType(KeyType.RANGE)));
        Dynalite.awaitActive(dynamoDb, table);

        // When the stack is built over it, Then it is refused, naming the table and the indexes
        TemplateException refused = assertThrows(TemplateException.class,
                () -> DatalakeStack.builder(AWS).prefix(prefix).tablesOnly().build());
        assertTrue(refused.getMessage().contains(table) && refused.getMessage().contains("[work-id-index]"),
                refused.getMessage());
        assertTrue(dynamoDb.describeTable(r -> r.tableName(table)).table().globalSecondaryIndexes().isEmpty());
    }

    @Test
    void aParameterTheTemplateRefusesIsRefusedBeforeAnythingIsMade() {
        TemplateException refused = assertThrows(TemplateException.class, () -> DatalakeStack.builder(AWS)
                .prefix(DatalakeStack.uniquePrefix("jwt")).parameter("ApiAuthMode", "JWT").build());
        assertTrue(refused.getMessage().contains("JwtIssuer"), refused.getMessage());
    }

    @Test
    void buildingTwiceKeepsTheResourcesAndTestSideAdditionsComeOnTop(SnsClient sns, SqsClient sqs) {
        String prefix = DatalakeStack.uniquePrefix("again");
        DatalakeStack first = DatalakeStack.builder(AWS).prefix(prefix).build();
        DatalakeStack second = DatalakeStack.builder(AWS).prefix(prefix).parameter("IngestMaxReceiveCount", "3").build();
        assertEquals(first.ingestQueueUrl(), second.ingestQueueUrl());
        assertEquals(1, sns.listSubscriptionsByTopic(r -> r.topicArn(second.uploadTopicArn())).subscriptions().size());

        // A queue subscribed to the report topic, raw, where a test reads reports
        String reports = second.subscribeReportQueue();
        sns.publish(r -> r.topicArn(second.reportTopicArn()).message("{\"status\":\"success\",\"records\":[]}"));
        Message report = Messages.awaitMessage(sqs, reports, body -> body.contains("status"), Duration.ofSeconds(10));
        assertEquals("{\"status\":\"success\",\"records\":[]}", report.body());
    }

    @Test
    void withQueueNotificationsTheBucketNotifiesTheIngestQueueAndThereIsNoUploadTopic(SnsClient sns, SqsClient sqs,
            S3Client s3) throws IOException {
        // When the stack is built with UploadNotifications=Queue
        DatalakeStack stack = DatalakeStack.builder(AWS).prefix(DatalakeStack.uniquePrefix("queue")).queueNotifications()
                .build();

        // Then the bucket notifies creations, removals and expirations to the ingest queue, and no topic
        GetBucketNotificationConfigurationResponse notifications =
                s3.getBucketNotificationConfiguration(r -> r.bucket(stack.bucket()));
        assertEquals(List.of(Event.S3_OBJECT_CREATED, Event.S3_OBJECT_REMOVED, Event.S3_LIFECYCLE_EXPIRATION),
                notifications.queueConfigurations().stream().flatMap(c -> c.events().stream()).toList());
        assertTrue(notifications.queueConfigurations().stream().allMatch(c -> c.queueArn().equals(stack.ingestQueueArn())));
        assertEquals(List.of(), notifications.topicConfigurations());
        assertTrue(sns.listTopicsPaginator().topics().stream().noneMatch(t -> t.topicArn().endsWith(":" + stack.prefix() + "-uploads")),
                "no upload topic");

        // and the queue's policy lets S3 send for this bucket, and the stack's topic (as in Topic mode, so that
        // a switch of mode never denies the old source)
        JsonNode statement = JSON.readTree(sqs.getQueueAttributes(r -> r.queueUrl(stack.ingestQueueUrl())
                .attributeNames(QueueAttributeName.POLICY)).attributes().get(QueueAttributeName.POLICY)).path("Statement");
        Map<String, String> sources = new java.util.TreeMap<>();
        statement.forEach(s -> sources.put(s.path("Principal").path("Service").asText(),
                s.path("Condition").path("ArnEquals").path("aws:SourceArn").asText()));
        assertEquals(Map.of("s3.amazonaws.com", "arn:aws:s3:::" + stack.bucket(),
                "sns.amazonaws.com", stack.ingestQueueArn().replace(":sqs:", ":sns:").replaceFirst("-ingest$", "-uploads")),
                sources, statement.toString());

        // and an upload reaches the queue as S3's own event, no SNS between
        s3.putObject(r -> r.bucket(stack.bucket()).key("straight.txt"),
                software.amazon.awssdk.core.sync.RequestBody.fromString("payload"));
        JsonNode event = JSON.readTree(Messages.awaitMessage(sqs, stack.ingestQueueUrl(),
                body -> body.contains("ObjectCreated"), Duration.ofSeconds(20)).body());
        assertEquals("aws:s3", event.path("Records").path(0).path("eventSource").asText(), event.toString());
    }

    @Test
    void anAdoptedBucketKeepsItsNotificationsAndItsEventBridgeEventsReachTheIngestQueue(SqsClient sqs, S3Client s3)
            throws IOException {
        // Given a bucket that notifies a queue of its own
        String bucket = DatalakeStack.uniquePrefix("team-bucket");
        s3.createBucket(r -> r.bucket(bucket));
        String own = sqs.createQueue(r -> r.queueName(bucket + "-own")).queueUrl();
        String ownArn = sqs.getQueueAttributes(r -> r.queueUrl(own).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
        QueueConfiguration ownConfiguration = QueueConfiguration.builder().queueArn(ownArn).events(Event.S3_OBJECT_CREATED)
                .build();
        s3.putBucketNotificationConfiguration(r -> r.bucket(bucket).notificationConfiguration(n -> n
                .queueConfigurations(ownConfiguration)));

        // When the stack is built with ExistingBucketName
        DatalakeStack stack = DatalakeStack.builder(AWS).prefix(DatalakeStack.uniquePrefix("adopts")).adopting(bucket)
                .build();

        // Then it makes no bucket, the functions and outputs name the adopted one, and its notifications are untouched
        assertThrows(software.amazon.awssdk.services.s3.model.NoSuchBucketException.class, () -> s3.headBucket(r -> r.bucket(
                stack.prefix() + "-" + AWS.accountId() + "-" + AWS.region())));
        assertEquals(bucket, stack.bucket());
        assertEquals("s3://" + bucket, stack.ingester().environment().get("DATALAKE_STORAGE_URL"));
        assertEquals("s3://" + bucket, stack.query().environment().get("DATALAKE_STORAGE_URL"));
        assertEquals(List.of(ownArn), s3.getBucketNotificationConfiguration(r -> r.bucket(bucket)).queueConfigurations()
                .stream().map(QueueConfiguration::queueArn).toList());

        // and the ingest queue's policy lets the stack's rule deliver, bound to it
        String rule = "arn:aws:events:" + AWS.region() + ":" + AWS.accountId() + ":rule/" + stack.prefix() + "-adopted-bucket";
        JsonNode statements = JSON.readTree(sqs.getQueueAttributes(r -> r.queueUrl(stack.ingestQueueUrl())
                .attributeNames(QueueAttributeName.POLICY)).attributes().get(QueueAttributeName.POLICY)).path("Statement");
        JsonNode events = null;
        for (JsonNode statement : statements) {
            if (statement.path("Principal").path("Service").asText().equals("events.amazonaws.com")) {
                events = statement;
            }
        }
        assertTrue(events != null, statements.toString());
        assertEquals(rule, events.path("Condition").path("ArnEquals").path("aws:SourceArn").asText());

        // and once the bucket sends its events to EventBridge too (scripts/adopt.sh), an upload reaches the
        // ingest queue as EventBridge's Object Created, and the bucket's own queue still gets S3's notification
        s3.putBucketNotificationConfiguration(r -> r.bucket(bucket).notificationConfiguration(n -> n
                .queueConfigurations(ownConfiguration).eventBridgeConfiguration(EventBridgeConfiguration.builder().build())));
        s3.putObject(r -> r.bucket(bucket).key("adopted.txt"), software.amazon.awssdk.core.sync.RequestBody.fromString("x"));
        JsonNode event = JSON.readTree(Messages.awaitMessage(sqs, stack.ingestQueueUrl(),
                body -> body.contains("adopted.txt"), Duration.ofSeconds(20)).body());
        assertEquals("Object Created", event.path("detail-type").asText(), event.toString());
        assertEquals(bucket, event.path("detail").path("bucket").path("name").asText());
        Messages.awaitMessage(sqs, own, body -> body.contains("adopted.txt") && body.contains("ObjectCreated"),
                Duration.ofSeconds(20));
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
