package datalake.emulators;

import datalake.lambda.EnvironmentVariable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.Event;
import software.amazon.awssdk.services.s3.model.NotificationConfiguration;
import software.amazon.awssdk.services.s3.model.QueueConfiguration;
import software.amazon.awssdk.services.s3.model.TopicConfiguration;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.Subscription;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * template.yaml's datalake resources made on emulators (or any endpoints the clients reach), and what
 * the functions need to use them: the records and latest tables, the bucket, the ingest queue with its
 * dead-letter queue, the upload topic and the bucket's notification (creations, removals and lifecycle
 * expirations), and the report topic with a queue where tests read the reports.
 *
 * <p>{@link #create} is idempotent: existing resources are kept and their settings brought to what the
 * {@link Options} say, so creating twice (or with other options) is fine.
 *
 * @param names                    the resource names
 * @param options                  how the resources are wired
 * @param recordsTableArn          the records table
 * @param latestTableArn           the latest table
 * @param bucketArn                the data-lake bucket
 * @param ingestQueueUrl           the ingest queue, for ReceiveMessage
 * @param ingestQueueArn           the ingest queue
 * @param deadLetterQueueUrl       the dead-letter queue (DATALAKE_DLQ_URL)
 * @param deadLetterQueueArn       the dead-letter queue
 * @param uploadTopicArn           the topic S3 notifies with {@link NotificationRoute#TOPIC}
 * @param reportTopicArn           the status-report topic (DATALAKE_REPORT_TOPIC_ARN)
 * @param reportInspectionQueueUrl a queue subscribed (raw) to the report topic, where tests read reports
 */
public record Deployment(
        ResourceNames names,
        Options options,
        String recordsTableArn,
        String latestTableArn,
        String bucketArn,
        String ingestQueueUrl,
        String ingestQueueArn,
        String deadLetterQueueUrl,
        String deadLetterQueueArn,
        String uploadTopicArn,
        String reportTopicArn,
        String reportInspectionQueueUrl) {

    /** What the bucket notifies, as template.yaml's does: creations, removals, lifecycle expirations. */
    static final List<Event> NOTIFIED_EVENTS = List.of(Event.S3_OBJECT_CREATED, Event.S3_OBJECT_REMOVED,
            Event.S3_LIFECYCLE_EXPIRATION);

    /** SQS's largest message size; S3 notifications can exceed the 64 KB the ingester requires. */
    static final int MAXIMUM_MESSAGE_SIZE = 262_144;

    /** Where S3 sends its notifications. */
    public enum NotificationRoute {
        /** S3 → ingest queue. */
        QUEUE,
        /** S3 → upload topic → ingest queue. */
        TOPIC
    }

    /**
     * How the resources are wired.
     *
     * @param notificationRoute whether S3 notifies the ingest queue directly or through the upload topic
     * @param rawDelivery       with {@link NotificationRoute#TOPIC}: whether SNS delivers the bare S3 event
     *                          (true, as template.yaml subscribes) or wraps it in an SNS envelope (false)
     * @param maxReceiveCount   receives of one message before SQS moves it to the dead-letter queue
     * @param reportInspection  whether the report-inspection queue is subscribed to the report topic (tests
     *                          read reports there); without a reader it only grows, and moto's SQS slows
     *                          down with its depth
     * @param versioned         whether the bucket keeps versions, as template.yaml's does. Off by default:
     *                          moto sends no notification for a delete marker, so the local pipeline would
     *                          not hear of deletes; tests of versions turn it on and send what AWS would
     */
    public record Options(NotificationRoute notificationRoute, boolean rawDelivery, int maxReceiveCount,
            boolean reportInspection, boolean versioned) {

        public Options {
            if (notificationRoute == null) {
                throw new IllegalArgumentException("notificationRoute must be QUEUE or TOPIC, not null.");
            }
            if (maxReceiveCount < 1 || maxReceiveCount > 1000) {
                throw new IllegalArgumentException("maxReceiveCount " + maxReceiveCount + " is not between 1 and 1000.");
            }
        }

        /** S3 → SNS (enveloped, not raw) → SQS, maxReceiveCount 5, reports inspected, no versions. */
        public static Options defaults() {
            return new Options(NotificationRoute.TOPIC, false, 5, true, false);
        }

        public Options withNotificationRoute(NotificationRoute route) {
            return new Options(route, rawDelivery, maxReceiveCount, reportInspection, versioned);
        }

        public Options withRawDelivery(boolean raw) {
            return new Options(notificationRoute, raw, maxReceiveCount, reportInspection, versioned);
        }

        public Options withMaxReceiveCount(int count) {
            return new Options(notificationRoute, rawDelivery, count, reportInspection, versioned);
        }

        public Options withReportInspection(boolean subscribed) {
            return new Options(notificationRoute, rawDelivery, maxReceiveCount, subscribed, versioned);
        }

        public Options withVersioning(boolean keepVersions) {
            return new Options(notificationRoute, rawDelivery, maxReceiveCount, reportInspection, keepVersions);
        }
    }

    /** {@link #create(AwsEndpoints, ResourceNames, Options)} with {@link Options#defaults()}. */
    public static Deployment create(AwsEndpoints aws, ResourceNames names) {
        return create(aws, names, Options.defaults());
    }

    public static Deployment create(AwsEndpoints aws, ResourceNames names, Options options) {
        return create(aws.dynamoDb(), aws.s3(), aws.sqs(), aws.sns(), names, options);
    }

    /** The resources made with these clients (the local runner's, on emulators of its own). */
    public static Deployment create(DynamoDbClient dynamoDb, S3Client s3, SqsClient sqs, SnsClient sns,
            ResourceNames names, Options options) {
        return new Creator(dynamoDb, s3, sqs, sns).create(names, options);
    }

    /**
     * The functions' configuration for these resources (docs/DESIGN.md, "Configuration"):
     * DATALAKE_DYNAMODB_TABLE, DATALAKE_LATEST_TABLE, DATALAKE_REPORT_TOPIC_ARN, DATALAKE_DLQ_URL,
     * DATALAKE_MAX_RECEIVE_COUNT, DATALAKE_STORAGE_URL, AWS_REGION. Endpoints come from
     * {@link AwsEndpoints#endpointEnvironment()}.
     */
    public Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put(EnvironmentVariable.DYNAMODB_TABLE.key(), names.recordsTable());
        env.put(EnvironmentVariable.LATEST_TABLE.key(), names.latestTable());
        env.put(EnvironmentVariable.REPORT_TOPIC_ARN.key(), reportTopicArn);
        env.put(EnvironmentVariable.DLQ_URL.key(), deadLetterQueueUrl);
        env.put(EnvironmentVariable.MAX_RECEIVE_COUNT.key(), Integer.toString(options.maxReceiveCount()));
        env.put(EnvironmentVariable.STORAGE_URL.key(), names.storageUrl());
        env.put(EnvironmentVariable.REGION.key(), names.region());
        return Collections.unmodifiableMap(env);
    }

    /** The creation calls, on one set of clients. */
    private record Creator(DynamoDbClient dynamoDb, S3Client s3, SqsClient sqs, SnsClient sns) {
        Deployment create(ResourceNames names, Options options) {
            String recordsTableArn = createTable(TableSchemas.recordsTable(names.recordsTable()));
            String latestTableArn = createTable(TableSchemas.latestTable(names.latestTable()));

            String bucketArn = createBucket(names.bucket());
            if (options.versioned()) {
                s3.putBucketVersioning(r -> r.bucket(names.bucket())
                        .versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
            }

            String dlqUrl = createQueue(names.deadLetterQueue());
            String dlqArn = queueArn(dlqUrl);
            String ingestUrl = createQueue(names.ingestQueue());
            String ingestArn = queueArn(ingestUrl);
            sqs.setQueueAttributes(r -> r.queueUrl(ingestUrl).attributes(Map.of(
                    QueueAttributeName.REDRIVE_POLICY,
                    "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"" + options.maxReceiveCount() + "\"}",
                    QueueAttributeName.MAXIMUM_MESSAGE_SIZE, Integer.toString(MAXIMUM_MESSAGE_SIZE),
                    QueueAttributeName.POLICY, allowSend(ingestArn))));

            String uploadTopicArn = createTopic(names.uploadTopic(), true);
            if (options.notificationRoute() == NotificationRoute.TOPIC) {
                subscribe(uploadTopicArn, ingestArn, options.rawDelivery());
            } else {
                unsubscribe(uploadTopicArn, ingestArn);
            }
            notifyOnObjectChanges(names.bucket(), options.notificationRoute(), ingestArn, uploadTopicArn);

            String reportTopicArn = createTopic(names.reportTopic(), false);
            String inspectionUrl = createQueue(names.reportInspectionQueue());
            String inspectionArn = queueArn(inspectionUrl);
            sqs.setQueueAttributes(r -> r.queueUrl(inspectionUrl).attributes(Map.of(
                    QueueAttributeName.POLICY, allowSend(inspectionArn))));
            // Raw, so a test reads the report JSON itself as the message body.
            if (options.reportInspection()) {
                subscribe(reportTopicArn, inspectionArn, true);
            } else {
                unsubscribe(reportTopicArn, inspectionArn);
            }

            return new Deployment(names, options, recordsTableArn, latestTableArn, bucketArn, ingestUrl, ingestArn,
                    dlqUrl, dlqArn, uploadTopicArn, reportTopicArn, inspectionUrl);
        }

        private String createTable(CreateTableRequest request) {
            try {
                dynamoDb.createTable(request);
            } catch (ResourceInUseException alreadyThere) {
                // Kept as it is: the key schema of an existing table cannot change anyway.
            }
            DescribeTableRequest describe = DescribeTableRequest.builder().tableName(request.tableName()).build();
            dynamoDb.waiter().waitUntilTableExists(describe);
            return dynamoDb.describeTable(describe).table().tableArn();
        }

        private String createBucket(String bucket) {
            try {
                s3.createBucket(r -> r.bucket(bucket));
            } catch (BucketAlreadyOwnedByYouException alreadyThere) {
                // us-east-1 answers 200 for a bucket one owns; other regions answer this.
            }
            return "arn:aws:s3:::" + bucket;
        }

        private String createQueue(String name) {
            // Attributes are set afterwards: CreateQueue fails on an existing queue with other attributes.
            return sqs.createQueue(r -> r.queueName(name)).queueUrl();
        }

        private String queueArn(String queueUrl) {
            return sqs.getQueueAttributes(r -> r.queueUrl(queueUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                    .attributes().get(QueueAttributeName.QUEUE_ARN);
        }

        private String createTopic(String name, boolean s3Publishes) {
            String arn = sns.createTopic(r -> r.name(name)).topicArn();
            if (s3Publishes) {
                String policy = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\","
                        + "\"Principal\":{\"Service\":\"s3.amazonaws.com\"},\"Action\":\"sns:Publish\","
                        + "\"Resource\":\"" + arn + "\"}]}";
                sns.setTopicAttributes(r -> r.topicArn(arn).attributeName("Policy").attributeValue(policy));
            }
            return arn;
        }

        private void subscribe(String topicArn, String queueArn, boolean raw) {
            // SNS returns the existing subscription for the same topic, protocol and endpoint.
            String subscriptionArn = sns.subscribe(r -> r.topicArn(topicArn).protocol("sqs").endpoint(queueArn)
                    .returnSubscriptionArn(true)).subscriptionArn();
            sns.setSubscriptionAttributes(r -> r.subscriptionArn(subscriptionArn)
                    .attributeName("RawMessageDelivery").attributeValue(Boolean.toString(raw)));
        }

        private void unsubscribe(String topicArn, String queueArn) {
            for (Subscription subscription : sns.listSubscriptionsByTopicPaginator(r -> r.topicArn(topicArn))
                    .subscriptions()) {
                if (queueArn.equals(subscription.endpoint())) {
                    sns.unsubscribe(r -> r.subscriptionArn(subscription.subscriptionArn()));
                }
            }
        }

        /** The events template.yaml subscribes: creations, removals and lifecycle expirations. */
        private void notifyOnObjectChanges(String bucket, NotificationRoute route, String queueArn, String topicArn) {
            NotificationConfiguration.Builder configuration = NotificationConfiguration.builder();
            if (route == NotificationRoute.QUEUE) {
                configuration.queueConfigurations(QueueConfiguration.builder()
                        .id("datalake-ingest").queueArn(queueArn).events(NOTIFIED_EVENTS).build());
            } else {
                configuration.topicConfigurations(TopicConfiguration.builder()
                        .id("datalake-ingest").topicArn(topicArn).events(NOTIFIED_EVENTS).build());
            }
            s3.putBucketNotificationConfiguration(r -> r.bucket(bucket).notificationConfiguration(configuration.build()));
        }

        /** A queue policy letting S3 and SNS deliver: AWS needs it; emulators ignore it. */
        private static String allowSend(String queueArn) {
            return "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\","
                    + "\"Principal\":{\"Service\":[\"s3.amazonaws.com\",\"sns.amazonaws.com\"]},"
                    + "\"Action\":\"sqs:SendMessage\",\"Resource\":\"" + queueArn + "\"}]}";
        }
    }
}
