package datalake.emulators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

@ExtendWith(EmulatorsExtension.class)
class DeploymentIT {
    static final Emulators AWS = Emulators.shared();

    @Test
    void createsEveryResourceAndCanBeCalledAgain(DynamoDbClient dynamoDb, SqsClient sqs, SnsClient sns) {
        ResourceNames names = ResourceNames.unique("stack-resources");
        Deployment first = Deployment.create(AWS, names);
        Deployment second = Deployment.create(AWS, names, Deployment.Options.defaults().withMaxReceiveCount(3).withRawDelivery(true));

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
        Deployment stack = Deployment.create(AWS, ResourceNames.unique("reports"));

        sns.publish(r -> r.topicArn(stack.reportTopicArn()).message("{\"status\":\"success\",\"records\":[]}"));

        Message report = Messages.awaitMessage(sqs, stack.reportInspectionQueueUrl(),
                body -> body.contains("status"), Duration.ofSeconds(10));
        assertEquals("{\"status\":\"success\",\"records\":[]}", report.body());
    }

    @Test
    void switchingToDirectNotificationsRemovesTheTopicSubscription(SnsClient sns) {
        ResourceNames names = ResourceNames.unique("switch");
        Deployment.create(AWS, names);

        Deployment direct = Deployment.create(AWS, names,
                Deployment.Options.defaults().withNotificationRoute(Deployment.NotificationRoute.QUEUE));

        assertTrue(sns.listSubscriptionsByTopic(r -> r.topicArn(direct.uploadTopicArn())).subscriptions().isEmpty());
        assertEquals(direct.names().storageUrl(), direct.environment().get("DATALAKE_STORAGE_URL"));
        assertEquals(direct.deadLetterQueueUrl(), direct.environment().get("DATALAKE_DLQ_URL"));
    }

    @Test
    void withoutReportInspectionTheReportTopicHasNoSubscriber(SnsClient sns) {
        ResourceNames names = ResourceNames.unique("noinspect");
        Deployment.create(AWS, names);

        Deployment quiet = Deployment.create(AWS, names, Deployment.Options.defaults().withReportInspection(false));

        assertTrue(sns.listSubscriptionsByTopic(r -> r.topicArn(quiet.reportTopicArn())).subscriptions().isEmpty());
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
