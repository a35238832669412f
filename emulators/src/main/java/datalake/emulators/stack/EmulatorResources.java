package datalake.emulators.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import datalake.emulators.AwsEndpoints;
import datalake.emulators.Dynalite;
import datalake.emulators.template.ResolvedTemplate;
import datalake.emulators.template.Template;
import datalake.emulators.template.TemplateException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputDescription;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.Target;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import software.amazon.awssdk.services.s3.model.FilterRule;
import software.amazon.awssdk.services.s3.model.NotificationConfiguration;
import software.amazon.awssdk.services.s3.model.NotificationConfigurationFilter;
import software.amazon.awssdk.services.s3.model.OwnershipControlsRule;
import software.amazon.awssdk.services.s3.model.QueueConfiguration;
import software.amazon.awssdk.services.s3.model.S3KeyFilter;
import software.amazon.awssdk.services.s3.model.ServerSideEncryptionRule;
import software.amazon.awssdk.services.s3.model.TopicConfiguration;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Creates on emulators what {@link Emulation} says they can hold, from a resolved template, the way
 * CloudFormation would: tables, queues (and their policies), topics (and their policies), subscriptions,
 * buckets with their settings and notification configuration, EventBridge rules with their targets. Existing resources are kept and brought to
 * the template's settings, so building a stack twice under the same names is fine.
 */
final class EmulatorResources {
    private final AwsEndpoints aws;
    private final Set<String> withheld;
    private final Set<String> types;
    private ResolvedTemplate stack;

    private EmulatorResources(AwsEndpoints aws, ResolvedTemplate stack, Set<String> withheld, Set<String> types) {
        this.aws = aws;
        this.stack = stack;
        this.withheld = withheld;
        this.types = types;
    }

    /**
     * Creates the resources (of {@code types} only, unless null), leaving out the properties {@code withheld}
     * names ("Logical.Property"); the stack returned knows the queue URLs the emulator gave.
     */
    static ResolvedTemplate create(AwsEndpoints aws, ResolvedTemplate stack, Set<String> withheld, Set<String> types) {
        EmulatorResources creator = new EmulatorResources(aws, stack, withheld, types);
        creator.each("AWS::DynamoDB::Table", creator::table);
        creator.each("AWS::SQS::Queue", creator::queue);
        creator.each("AWS::SQS::QueuePolicy", creator::queuePolicy);
        creator.each("AWS::SNS::Topic", creator::topic);
        creator.each("AWS::SNS::TopicPolicy", creator::topicPolicy);
        creator.each("AWS::SNS::Subscription", creator::subscription);
        creator.each("AWS::S3::Bucket", creator::bucket);
        creator.each("AWS::Events::Rule", creator::rule);
        return creator.stack;
    }

    private interface Creation {
        void create(String logicalId, JsonNode properties);
    }

    private void each(String type, Creation creation) {
        if (types != null && !types.contains(type)) {
            return;
        }
        for (Template.Resource resource : stack.template().ofType(type)) {
            if (stack.exists(resource.logicalId())) {
                ObjectNode properties = stack.properties(resource.logicalId());
                for (String property : iterable(properties)) {
                    if (withheld.contains(resource.logicalId() + "." + property)) {
                        properties.remove(property);
                    }
                }
                creation.create(resource.logicalId(), properties);
            }
        }
    }

    private void table(String logicalId, JsonNode p) {
        DynamoDbClient dynamoDb = aws.dynamoDb();
        String name = stack.ref(logicalId);
        // CloudFormation's default billing mode is PROVISIONED, which then needs throughput: it never assumes one.
        boolean provisioned = p.path("BillingMode").asText("PROVISIONED").equals("PROVISIONED");
        CreateTableRequest.Builder request = CreateTableRequest.builder()
                .tableName(name)
                .billingMode(provisioned ? BillingMode.PROVISIONED : BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(list(p.path("AttributeDefinitions"), a -> AttributeDefinition.builder()
                        .attributeName(a.path("AttributeName").asText()).attributeType(a.path("AttributeType").asText()).build()))
                .keySchema(keys(p.path("KeySchema")));
        if (provisioned) {
            request.provisionedThroughput(throughput("the table " + logicalId, p.path("ProvisionedThroughput")));
        }
        if (p.has("GlobalSecondaryIndexes")) {
            request.globalSecondaryIndexes(list(p.path("GlobalSecondaryIndexes"), g -> {
                Projection.Builder projection = Projection.builder()
                        .projectionType(g.path("Projection").path("ProjectionType").asText());
                // Only when the template names some: DynamoDB refuses an empty list (dynalite says so too).
                if (g.path("Projection").has("NonKeyAttributes")) {
                    projection.nonKeyAttributes(list(g.path("Projection").path("NonKeyAttributes"), JsonNode::asText));
                }
                GlobalSecondaryIndex.Builder index = GlobalSecondaryIndex.builder()
                        .indexName(g.path("IndexName").asText())
                        .keySchema(keys(g.path("KeySchema")))
                        .projection(projection.build());
                if (provisioned) {
                    index.provisionedThroughput(throughput("the index " + g.path("IndexName").asText() + " of "
                            + logicalId, g.path("ProvisionedThroughput")));
                }
                return index.build();
            }));
        }
        CreateTableRequest create = request.build();
        try {
            dynamoDb.createTable(create);
        } catch (ResourceInUseException alreadyThere) {
            update(dynamoDb, logicalId, create);
        }
        Dynalite.awaitActive(dynamoDb, name);
        JsonNode ttl = p.path("TimeToLiveSpecification");
        if (ttl.path("Enabled").asBoolean(false) && dynamoDb.describeTimeToLive(r -> r.tableName(name))
                .timeToLiveDescription().timeToLiveStatus() != TimeToLiveStatus.ENABLED) {
            dynamoDb.updateTimeToLive(r -> r.tableName(name).timeToLiveSpecification(t -> t
                    .attributeName(ttl.path("AttributeName").asText()).enabled(true)));
        }
    }

    /**
     * Brings an existing table to the template's billing mode and capacities, as a stack update does. Its
     * key schema cannot change; nor can its indexes here (dynalite's UpdateTable neither creates nor deletes
     * an index), so a table whose indexes differ is refused rather than kept as it was.
     */
    private static void update(DynamoDbClient dynamoDb, String logicalId, CreateTableRequest wanted) {
        TableDescription table = dynamoDb.describeTable(r -> r.tableName(wanted.tableName())).table();
        Map<String, GlobalSecondaryIndexDescription> existing = new HashMap<>();
        table.globalSecondaryIndexes().forEach(index -> existing.put(index.indexName(), index));
        Set<String> names = new TreeSet<>();
        wanted.globalSecondaryIndexes().forEach(index -> names.add(index.indexName()));
        if (!names.equals(new TreeSet<>(existing.keySet()))) {
            throw new TemplateException("the table " + wanted.tableName() + " (" + logicalId + ") already exists with the"
                    + " indexes " + new TreeSet<>(existing.keySet()) + " where the template declares " + names
                    + "; the local DynamoDB cannot add or drop an index: delete the table or restart the local stack.");
        }
        BillingMode billing = table.billingModeSummary() == null || table.billingModeSummary().billingMode() == null
                ? BillingMode.PROVISIONED : table.billingModeSummary().billingMode();
        UpdateTableRequest.Builder update = UpdateTableRequest.builder().tableName(wanted.tableName());
        boolean changed = false;
        if (wanted.billingMode() != billing) {
            update.billingMode(wanted.billingMode());
            changed = true;
        }
        if (wanted.billingMode() == BillingMode.PROVISIONED) {
            if (changed || !same(wanted.provisionedThroughput(), table.provisionedThroughput())) {
                update.provisionedThroughput(wanted.provisionedThroughput());
                changed = true;
            }
            List<GlobalSecondaryIndexUpdate> indexes = new ArrayList<>();
            for (GlobalSecondaryIndex index : wanted.globalSecondaryIndexes()) {
                if (billing != BillingMode.PROVISIONED
                        || !same(index.provisionedThroughput(), existing.get(index.indexName()).provisionedThroughput())) {
                    indexes.add(GlobalSecondaryIndexUpdate.builder().update(u -> u.indexName(index.indexName())
                            .provisionedThroughput(index.provisionedThroughput())).build());
                }
            }
            if (!indexes.isEmpty()) {
                update.globalSecondaryIndexUpdates(indexes);
                changed = true;
            }
        }
        if (changed) {
            dynamoDb.updateTable(update.build());
        }
    }

    private static boolean same(ProvisionedThroughput wanted, ProvisionedThroughputDescription actual) {
        return actual != null && wanted.readCapacityUnits().equals(actual.readCapacityUnits())
                && wanted.writeCapacityUnits().equals(actual.writeCapacityUnits());
    }

    private void queue(String logicalId, JsonNode p) {
        SqsClient sqs = aws.sqs();
        String name = stack.getAtt(logicalId, "QueueName");
        // Attributes are set afterwards: CreateQueue fails on an existing queue with other attributes.
        String url = sqs.createQueue(r -> r.queueName(name)).queueUrl();
        Map<QueueAttributeName, String> attributes = new HashMap<>();
        copy(p, "VisibilityTimeout", QueueAttributeName.VISIBILITY_TIMEOUT, attributes);
        copy(p, "MessageRetentionPeriod", QueueAttributeName.MESSAGE_RETENTION_PERIOD, attributes);
        copy(p, "MaximumMessageSize", QueueAttributeName.MAXIMUM_MESSAGE_SIZE, attributes);
        copy(p, "DelaySeconds", QueueAttributeName.DELAY_SECONDS, attributes);
        copy(p, "ReceiveMessageWaitTimeSeconds", QueueAttributeName.RECEIVE_MESSAGE_WAIT_TIME_SECONDS, attributes);
        copy(p, "SqsManagedSseEnabled", QueueAttributeName.SQS_MANAGED_SSE_ENABLED, attributes);
        if (p.has("RedrivePolicy")) {
            attributes.put(QueueAttributeName.REDRIVE_POLICY, p.get("RedrivePolicy").toString());
        }
        if (!attributes.isEmpty()) {
            sqs.setQueueAttributes(r -> r.queueUrl(url).attributes(attributes));
        }
        String arn = sqs.getQueueAttributes(r -> r.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
        expect(logicalId, stack.getAtt(logicalId, "Arn"), arn);
        stack = stack.with(logicalId, null, url).with(logicalId, "QueueUrl", url);
    }

    private void queuePolicy(String logicalId, JsonNode p) {
        String policy = p.path("PolicyDocument").toString();
        for (JsonNode url : p.path("Queues")) {
            aws.sqs().setQueueAttributes(r -> r.queueUrl(url.asText()).attributes(Map.of(QueueAttributeName.POLICY, policy)));
        }
    }

    private void topic(String logicalId, JsonNode p) {
        String arn = aws.sns().createTopic(r -> r.name(stack.getAtt(logicalId, "TopicName"))).topicArn();
        expect(logicalId, stack.ref(logicalId), arn);
    }

    private void topicPolicy(String logicalId, JsonNode p) {
        String policy = p.path("PolicyDocument").toString();
        for (JsonNode topic : p.path("Topics")) {
            aws.sns().setTopicAttributes(r -> r.topicArn(topic.asText()).attributeName("Policy").attributeValue(policy));
        }
    }

    private void subscription(String logicalId, JsonNode p) {
        String protocol = p.path("Protocol").asText();
        if (!protocol.equals("sqs")) {
            return; // Emulation lists the protocols moto cannot deliver to (e-mail)
        }
        SnsClient sns = aws.sns();
        // SNS returns the existing subscription for the same topic, protocol and endpoint.
        String arn = sns.subscribe(r -> r.topicArn(p.path("TopicArn").asText()).protocol(protocol)
                .endpoint(p.path("Endpoint").asText()).returnSubscriptionArn(true)).subscriptionArn();
        sns.setSubscriptionAttributes(r -> r.subscriptionArn(arn).attributeName("RawMessageDelivery")
                .attributeValue(Boolean.toString(p.path("RawMessageDelivery").asBoolean(false))));
        if (p.has("FilterPolicy")) {
            sns.setSubscriptionAttributes(r -> r.subscriptionArn(arn).attributeName("FilterPolicy")
                    .attributeValue(p.get("FilterPolicy").toString()));
        }
        if (p.has("RedrivePolicy")) {
            sns.setSubscriptionAttributes(r -> r.subscriptionArn(arn).attributeName("RedrivePolicy")
                    .attributeValue(p.get("RedrivePolicy").toString()));
        }
    }

    /** A rule of the default event bus with its targets (ids and ARNs as written); PutRule keeps an existing one. */
    private void rule(String logicalId, JsonNode p) {
        String name = stack.ref(logicalId);
        try (EventBridgeClient events = aws.eventBridge()) {
            String arn = events.putRule(r -> r.name(name).eventPattern(p.path("EventPattern").toString())
                    .state(p.path("State").asText("ENABLED"))).ruleArn();
            expect(logicalId, stack.getAtt(logicalId, "Arn"), arn);
            events.putTargets(r -> r.rule(name).targets(list(p.path("Targets"), target -> Target.builder()
                    .id(target.path("Id").asText()).arn(target.path("Arn").asText()).build())));
        }
    }

    private void bucket(String logicalId, JsonNode p) {
        S3Client s3 = aws.s3();
        String bucket = stack.ref(logicalId);
        try {
            s3.createBucket(r -> r.bucket(bucket));
        } catch (BucketAlreadyOwnedByYouException alreadyThere) {
            // us-east-1 answers 200 for a bucket one owns; other regions answer this.
        }
        if (p.path("VersioningConfiguration").has("Status")) {
            s3.putBucketVersioning(r -> r.bucket(bucket).versioningConfiguration(v -> v
                    .status(p.path("VersioningConfiguration").path("Status").asText())));
        }
        JsonNode encryption = p.path("BucketEncryption").path("ServerSideEncryptionConfiguration");
        if (!encryption.isMissingNode()) {
            s3.putBucketEncryption(r -> r.bucket(bucket).serverSideEncryptionConfiguration(c -> c.rules(
                    list(encryption, rule -> ServerSideEncryptionRule.builder()
                            .bucketKeyEnabled(rule.path("BucketKeyEnabled").asBoolean(false))
                            .applyServerSideEncryptionByDefault(d -> d.sseAlgorithm(
                                    rule.path("ServerSideEncryptionByDefault").path("SSEAlgorithm").asText()))
                            .build()))));
        }
        JsonNode block = p.path("PublicAccessBlockConfiguration");
        if (!block.isMissingNode()) {
            s3.putPublicAccessBlock(r -> r.bucket(bucket).publicAccessBlockConfiguration(b -> b
                    .blockPublicAcls(block.path("BlockPublicAcls").asBoolean(false))
                    .blockPublicPolicy(block.path("BlockPublicPolicy").asBoolean(false))
                    .ignorePublicAcls(block.path("IgnorePublicAcls").asBoolean(false))
                    .restrictPublicBuckets(block.path("RestrictPublicBuckets").asBoolean(false))));
        }
        JsonNode ownership = p.path("OwnershipControls").path("Rules");
        if (!ownership.isMissingNode()) {
            s3.putBucketOwnershipControls(r -> r.bucket(bucket).ownershipControls(o -> o.rules(list(ownership,
                    rule -> OwnershipControlsRule.builder()
                            .objectOwnership(rule.path("ObjectOwnership").asText()).build()))));
        }
        notifications(bucket, p.path("NotificationConfiguration"));
    }

    /** The bucket's Topic and Queue configurations, events and key filters as written. */
    private void notifications(String bucket, JsonNode configuration) {
        if (configuration.isMissingNode()) {
            return;
        }
        List<TopicConfiguration> topics = list(configuration.path("TopicConfigurations"), c -> TopicConfiguration.builder()
                .topicArn(c.path("Topic").asText()).eventsWithStrings(c.path("Event").asText())
                .filter(filter(c.path("Filter"))).build());
        List<QueueConfiguration> queues = list(configuration.path("QueueConfigurations"), c -> QueueConfiguration.builder()
                .queueArn(c.path("Queue").asText()).eventsWithStrings(c.path("Event").asText())
                .filter(filter(c.path("Filter"))).build());
        aws.s3().putBucketNotificationConfiguration(r -> r.bucket(bucket).notificationConfiguration(
                NotificationConfiguration.builder().topicConfigurations(topics).queueConfigurations(queues).build()));
    }

    private static List<String> iterable(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static NotificationConfigurationFilter filter(JsonNode filter) {
        JsonNode rules = filter.path("S3Key").path("Rules");
        if (rules.isMissingNode()) {
            return null;
        }
        return NotificationConfigurationFilter.builder().key(S3KeyFilter.builder().filterRules(list(rules,
                rule -> FilterRule.builder().name(rule.path("Name").asText()).value(rule.path("Value").asText()).build()))
                .build()).build();
    }

    private static void copy(JsonNode properties, String property, QueueAttributeName name,
            Map<QueueAttributeName, String> attributes) {
        if (properties.has(property)) {
            attributes.put(name, properties.get(property).asText());
        }
    }

    private static List<KeySchemaElement> keys(JsonNode schema) {
        return list(schema, k -> KeySchemaElement.builder().attributeName(k.path("AttributeName").asText())
                .keyType(k.path("KeyType").asText()).build());
    }

    /** A PROVISIONED table's (or index's) capacities, which CloudFormation requires: it assumes none. */
    static ProvisionedThroughput throughput(String what, JsonNode p) {
        if (!p.path("ReadCapacityUnits").canConvertToLong() && !p.path("ReadCapacityUnits").isTextual()
                || !p.path("WriteCapacityUnits").canConvertToLong() && !p.path("WriteCapacityUnits").isTextual()) {
            throw new TemplateException(what + " is PROVISIONED but has no ProvisionedThroughput with ReadCapacityUnits"
                    + " and WriteCapacityUnits; CloudFormation refuses it.");
        }
        try {
            return ProvisionedThroughput.builder().readCapacityUnits(Long.parseLong(p.path("ReadCapacityUnits").asText()))
                    .writeCapacityUnits(Long.parseLong(p.path("WriteCapacityUnits").asText())).build();
        } catch (NumberFormatException e) {
            throw new TemplateException("the ProvisionedThroughput of " + what + " is not a whole number of units: " + p, e);
        }
    }

    private static <T> List<T> list(JsonNode array, Function<JsonNode, T> mapping) {
        List<T> out = new ArrayList<>();
        for (JsonNode element : array) {
            out.add(mapping.apply(element));
        }
        return out;
    }

    /** What the emulator answered must be what the template resolves to (same account and region). */
    private static void expect(String logicalId, String resolved, String answered) {
        if (!resolved.equals(answered)) {
            throw new TemplateException("the emulator made " + logicalId + " as " + answered + ", where the template"
                    + " resolves it to " + resolved + "; the stack's account and region must be the emulator's.");
        }
    }
}
