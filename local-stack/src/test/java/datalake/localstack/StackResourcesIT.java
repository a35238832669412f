package datalake.localstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

class StackResourcesIT {
    @RegisterExtension static final LocalAws AWS = LocalAws.shared();

    @Test
    void createsEveryResourceAndCanBeCalledAgain(DynamoDbClient dynamoDb, SqsClient sqs, SnsClient sns) {
        StackNames names = StackNames.unique("stack-resources");
        StackResources resources = StackResources.on(AWS);

        Stack first = resources.create(names);
        Stack second = resources.create(names, StackOptions.defaults().withMaxReceiveCount(3).withRawDelivery(true));

        assertEquals(first.ingestQueueUrl(), second.ingestQueueUrl());
        assertEquals(first.recordsTableArn(), second.recordsTableArn());

        TableDescription records = dynamoDb.describeTable(r -> r.tableName(names.recordsTable())).table();
        assertEquals(List.of(key("time_index_key", KeyType.HASH), key("range_key", KeyType.RANGE)), records.keySchema());
        assertEquals(BillingMode.PAY_PER_REQUEST, records.billingModeSummary().billingMode());
        assertEquals("work-id-index", records.globalSecondaryIndexes().get(0).indexName());
        assertEquals(List.of(key("work_id_index_key", KeyType.HASH), key("range_key", KeyType.RANGE)),
                records.globalSecondaryIndexes().get(0).keySchema());
        assertEquals(ProjectionType.ALL, records.globalSecondaryIndexes().get(0).projection().projectionType());
        TableDescription latest = dynamoDb.describeTable(r -> r.tableName(names.latestTable())).table();
        assertEquals(List.of(key("what_where_key", KeyType.HASH)), latest.keySchema());

        Map<QueueAttributeName, String> ingest = sqs.getQueueAttributes(r -> r.queueUrl(second.ingestQueueUrl())
                .attributeNames(QueueAttributeName.ALL)).attributes();
        assertEquals("262144", ingest.get(QueueAttributeName.MAXIMUM_MESSAGE_SIZE));
        assertTrue(ingest.get(QueueAttributeName.REDRIVE_POLICY).contains(second.deadLetterQueueArn()));
        assertTrue(ingest.get(QueueAttributeName.REDRIVE_POLICY).replace(" ", "").matches(".*\"maxReceiveCount\":\"?3\"?.*"),
                ingest.get(QueueAttributeName.REDRIVE_POLICY));

        var subscriptions = sns.listSubscriptionsByTopic(r -> r.topicArn(second.uploadTopicArn())).subscriptions();
        assertEquals(1, subscriptions.size());
        assertEquals("true", sns.getSubscriptionAttributes(r -> r.subscriptionArn(subscriptions.get(0).subscriptionArn()))
                .attributes().get("RawMessageDelivery"));

        assertEquals(1, AWS.s3().listBuckets().buckets().stream().filter(b -> b.name().equals(names.bucket())).count());
    }

    @Test
    void reportsPublishedToTheReportTopicCanBeReadFromTheInspectionQueue(SnsClient sns, SqsClient sqs) {
        Stack stack = StackResources.on(AWS).create(StackNames.unique("reports"));

        sns.publish(r -> r.topicArn(stack.reportTopicArn()).message("{\"status\":\"success\",\"records\":[]}"));

        Message report = Messages.awaitMessage(sqs, stack.reportInspectionQueueUrl(),
                body -> body.contains("status"), Duration.ofSeconds(10));
        assertEquals("{\"status\":\"success\",\"records\":[]}", report.body());
    }

    @Test
    void switchingToDirectNotificationsRemovesTheTopicSubscription(SnsClient sns) {
        StackNames names = StackNames.unique("switch");
        StackResources.on(AWS).create(names);

        Stack direct = StackResources.on(AWS).create(names,
                StackOptions.defaults().withNotificationRoute(StackOptions.NotificationRoute.QUEUE));

        assertTrue(sns.listSubscriptionsByTopic(r -> r.topicArn(direct.uploadTopicArn())).subscriptions().isEmpty());
        assertEquals(direct.names().storageUrl(), direct.environment().get("DATALAKE_STORAGE_URL"));
        assertEquals(direct.deadLetterQueueUrl(), direct.environment().get("DATALAKE_DLQ_URL"));
    }

    @Test
    void withoutReportInspectionTheReportTopicHasNoSubscriber(SnsClient sns) {
        StackNames names = StackNames.unique("noinspect");
        StackResources.on(AWS).create(names);

        Stack quiet = StackResources.on(AWS).create(names, StackOptions.defaults().withReportInspection(false));

        assertTrue(sns.listSubscriptionsByTopic(r -> r.topicArn(quiet.reportTopicArn())).subscriptions().isEmpty());
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
