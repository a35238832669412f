package datalake.localstack;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import software.amazon.awssdk.services.s3.model.Event;
import software.amazon.awssdk.services.s3.model.NotificationConfiguration;
import software.amazon.awssdk.services.s3.model.QueueConfiguration;
import software.amazon.awssdk.services.s3.model.TopicConfiguration;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.Subscription;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Creates the datalake stack on the emulators (or any account the clients point at): the records and
 * latest tables, the bucket, the ingest queue with its dead-letter queue, the upload topic, the bucket
 * notification, and the report topic with a queue that tests read reports from. template.yaml is the
 * deployed equivalent.
 *
 * <p>Idempotent: existing resources are kept and their settings brought to what {@link StackOptions}
 * says, so calling {@link #create} twice (or with other options) is fine.
 */
public final class StackResources {
    /** SQS's largest message size; S3 notifications can exceed the 64 KB the ingester requires. */
    static final int MAXIMUM_MESSAGE_SIZE = 262_144;

    private final DynamoDbClient dynamoDb;
    private final S3Client s3;
    private final SqsClient sqs;
    private final SnsClient sns;

    public StackResources(DynamoDbClient dynamoDb, S3Client s3, SqsClient sqs, SnsClient sns) {
        this.dynamoDb = dynamoDb;
        this.s3 = s3;
        this.sqs = sqs;
        this.sns = sns;
    }

    /** Resources created with {@code aws}'s clients. */
    public static StackResources on(LocalAws aws) {
        return new StackResources(aws.dynamoDb(), aws.s3(), aws.sqs(), aws.sns());
    }

    /** {@link #create(StackNames, StackOptions)} with {@link StackOptions#defaults()}. */
    public Stack create(StackNames names) {
        return create(names, StackOptions.defaults());
    }

    public Stack create(StackNames names, StackOptions options) {
        String recordsTableArn = createTable(TableSchemas.recordsTable(names.recordsTable()));
        String latestTableArn = createTable(TableSchemas.latestTable(names.latestTable()));

        String bucketArn = createBucket(names.bucket());

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
        if (options.notificationRoute() == StackOptions.NotificationRoute.TOPIC) {
            subscribe(uploadTopicArn, ingestArn, options.rawDelivery());
        } else {
            unsubscribe(uploadTopicArn, ingestArn);
        }
        notifyOnObjectCreated(names.bucket(), options.notificationRoute(), ingestArn, uploadTopicArn);

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

        return new Stack(names, options, recordsTableArn, latestTableArn, bucketArn, ingestUrl, ingestArn,
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
        for (Subscription subscription : sns.listSubscriptionsByTopicPaginator(r -> r.topicArn(topicArn)).subscriptions()) {
            if (queueArn.equals(subscription.endpoint())) {
                sns.unsubscribe(r -> r.subscriptionArn(subscription.subscriptionArn()));
            }
        }
    }

    private void notifyOnObjectCreated(
            String bucket, StackOptions.NotificationRoute route, String queueArn, String topicArn) {
        NotificationConfiguration.Builder configuration = NotificationConfiguration.builder();
        if (route == StackOptions.NotificationRoute.QUEUE) {
            configuration.queueConfigurations(QueueConfiguration.builder()
                    .id("datalake-ingest").queueArn(queueArn).events(Event.S3_OBJECT_CREATED).build());
        } else {
            configuration.topicConfigurations(TopicConfiguration.builder()
                    .id("datalake-ingest").topicArn(topicArn).events(Event.S3_OBJECT_CREATED).build());
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
