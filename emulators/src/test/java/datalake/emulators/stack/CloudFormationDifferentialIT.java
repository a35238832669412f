package datalake.emulators.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import datalake.emulators.DatalakeStack;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.emulators.template.Repository;
import datalake.emulators.template.ResolvedTemplate;
import datalake.emulators.template.SamTransform;
import datalake.emulators.template.Template;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.Capability;
import software.amazon.awssdk.services.cloudformation.model.Parameter;
import software.amazon.awssdk.services.cloudformation.model.Stack;
import software.amazon.awssdk.services.cloudformation.model.StackResourceSummary;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * template.yaml held against a second CloudFormation engine: for each parameter set the tests use, the
 * transformed template is created by moto's CloudFormation (in the moto server the tests start) and by the
 * local stack, and what both create is compared resource by resource, property by property. A difference
 * fails unless docs/DESIGN.md's emulation table lists that property of that type.
 *
 * <p>moto's CloudFormation (5.2.5) does not create everything: what it cannot is {@link #MOTO_CANNOT},
 * found by creating the template there, and is left out of the comparison rather than counted as ours.
 */
@ExtendWith(EmulatorsExtension.class)
class CloudFormationDifferentialIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Emulators AWS = Emulators.shared();
    /** The types both engines create (what the local stack creates, per Emulation). */
    private static final Set<String> COMPARED = Set.of("AWS::SQS::Queue", "AWS::SNS::Topic", "AWS::DynamoDB::Table",
            "AWS::S3::Bucket");
    /** Sent to moto besides the compared types: what they name (a key), and what moto skips but is ours (MOTO_CANNOT). */
    private static final Set<String> SENT = Set.of("AWS::KMS::Key", "AWS::SQS::QueuePolicy", "AWS::SNS::TopicPolicy",
            "AWS::SNS::Subscription");
    /** What moto's CloudFormation leaves out, by type or type.property, and how it shows. */
    private static final Map<String, String> MOTO_CANNOT = Map.of(
            "AWS::SNS::Subscription", "not a type moto's CloudFormation creates (it warns and skips it)",
            "AWS::SQS::QueuePolicy", "not a type moto's CloudFormation creates",
            "AWS::SNS::TopicPolicy", "not a type moto's CloudFormation creates",
            "AWS::Lambda::Function", "needs the packaged code in S3; with the functions, their versions, aliases,"
                    + " mappings and permissions, and the ApiGatewayV2 types (not supported), which the local stack"
                    + " does not create either",
            "AWS::S3::Bucket.NotificationConfiguration", "ignored: the bucket is made without notifications",
            "AWS::S3::Bucket.VersioningConfiguration", "ignored: the bucket is made unversioned",
            "AWS::S3::Bucket.BucketEncryption.BucketKeyEnabled", "ignored: the bucket key stays disabled",
            "AWS::DynamoDB::Table.TimeToLiveSpecification", "ignored: TTL stays DISABLED");
    /** Queue attributes that say when or how full, or come from a QueuePolicy moto's CloudFormation skips. */
    private static final Set<String> VOLATILE = Set.of("CreatedTimestamp", "LastModifiedTimestamp",
            "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesDelayed", "ApproximateNumberOfMessagesNotVisible",
            "Policy");
    /** CreateStack is not idempotent: a retry after an error would only answer AlreadyExists. */
    private static final CloudFormationClient CLOUD_FORMATION = Emulators.clientsFor(AWS.motoEndpoint())
            .build(CloudFormationClient.builder(), o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()));
    /** moto's own DynamoDB, where its CloudFormation makes tables (the local stack's are on dynalite). */
    private static final DynamoDbClient MOTO_DYNAMODB = Emulators.clientsFor(AWS.motoEndpoint())
            .build(DynamoDbClient.builder());

    /** A property of a type, as both engines made it, when they differ. */
    private record Difference(String type, String property, String detail) {
        @Override
        public String toString() {
            return type + "." + property + ": " + detail;
        }
    }

    static Stream<Arguments> parameterSets() {
        return Stream.of(Arguments.of("defaults", Map.of()),
                Arguments.of("UploadNotifications=Queue", Map.of("UploadNotifications", "Queue")),
                Arguments.of("TableBillingMode=PROVISIONED", Map.of("TableBillingMode", "PROVISIONED")),
                Arguments.of("ApiAuthMode=JWT", Map.of("ApiAuthMode", "JWT", "JwtIssuer", "https://issuer.example",
                        "JwtAudience", "client")));
    }

    @AfterAll
    static void closeClients() {
        CLOUD_FORMATION.close();
        MOTO_DYNAMODB.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("parameterSets")
    void whatBothEnginesCreateIsTheSameOrListedInTheEmulationTable(String name, Map<String, String> parameters)
            throws IOException {
        // Given the stack made by the local stack and by moto's CloudFormation, each under a prefix of its own
        String localPrefix = DatalakeStack.uniquePrefix("local");
        String motoPrefix = DatalakeStack.uniquePrefix("cfn");
        ResolvedTemplate local = DatalakeStack.builder(AWS).prefix(localPrefix).parameters(parameters).build().resolved();
        Map<String, String> motoParameters = new TreeMap<>(parameters);
        motoParameters.put("NamePrefix", motoPrefix);
        Template transformed = SamTransform.transform(Repository.template(),
                new SamTransform.Deployment(motoPrefix, AWS.accountId(), AWS.region(), motoParameters));
        CLOUD_FORMATION.createStack(r -> r.stackName(motoPrefix).templateBody(forMoto(transformed.json()).toString())
                .capabilities(Capability.CAPABILITY_IAM)
                .parameters(motoParameters.entrySet().stream().map(e -> Parameter.builder().parameterKey(e.getKey())
                        .parameterValue(e.getValue()).build()).toList()));
        Stack stack = CLOUD_FORMATION.describeStacks(r -> r.stackName(motoPrefix)).stacks().get(0);
        assertEquals("CREATE_COMPLETE", stack.stackStatusAsString(), name + ": " + stack.stackStatusReason());
        Map<String, String> physical = new HashMap<>();
        for (StackResourceSummary resource : CLOUD_FORMATION.listStackResourcesPaginator(r -> r.stackName(motoPrefix))
                .stackResourceSummaries()) {
            physical.put(resource.logicalResourceId(), resource.physicalResourceId());
        }

        // When every resource both create is compared, property by property, the prefixes set aside
        List<Difference> differences = new ArrayList<>();
        for (Template.Resource resource : local.template().resources().values()) {
            String type = resource.type();
            if (!COMPARED.contains(type) || !local.exists(resource.logicalId())) {
                continue;
            }
            String id = resource.logicalId();
            String theirs = physical.get(id);
            if (theirs == null) {
                differences.add(new Difference(type, id, "moto's CloudFormation did not create it"));
                continue;
            }
            Names names = new Names(localPrefix, motoPrefix);
            switch (type) {
                case "AWS::SQS::Queue" -> queue(local.ref(id), theirs, names, differences);
                case "AWS::SNS::Topic" -> topic(local.ref(id), theirs, names, differences);
                case "AWS::DynamoDB::Table" -> table(local.ref(id), theirs, names, differences);
                case "AWS::S3::Bucket" -> bucket(local.ref(id), theirs, names, differences);
                default -> throw new IllegalStateException(type);
            }
        }

        // Then each difference is one docs/DESIGN.md's emulation table explains
        Set<String> explained = explained();
        assertEquals(List.of(), differences.stream().filter(d -> !explained.contains(d.type() + "." + d.property()))
                .map(Difference::toString).toList(), name + ": differences the emulation table does not list");
    }

    /** Both engines' names, each with its prefix replaced, so that equal settings read equal. */
    private record Names(String local, String moto) {
        String ours(String text) {
            return text == null ? null : text.replace(local, "<prefix>");
        }

        String theirs(String text) {
            return text == null ? null : text.replace(moto, "<prefix>");
        }
    }

    private static void queue(String localUrl, String motoUrl, Names names, List<Difference> out) throws IOException {
        String motoName = motoUrl.substring(motoUrl.lastIndexOf('/') + 1);
        String theirUrl = AWS.sqs().getQueueUrl(r -> r.queueName(motoName)).queueUrl();
        Map<String, String> ours = queueAttributes(localUrl);
        Map<String, String> theirs = queueAttributes(theirUrl);
        for (String attribute : new TreeSet<>(union(ours.keySet(), theirs.keySet()))) {
            String a = names.ours(ours.get(attribute));
            String b = names.theirs(theirs.get(attribute));
            if (attribute.equals("RedrivePolicy") && a != null && b != null) {
                a = redrive(a);
                b = redrive(b);
            }
            if (!Objects.equals(a, b)) {
                out.add(new Difference("AWS::SQS::Queue", attribute.equals("QueueArn") ? "QueueName" : attribute,
                        "local " + a + ", moto " + b));
            }
        }
    }

    private static Map<String, String> queueAttributes(String url) {
        Map<String, String> attributes = new TreeMap<>(AWS.sqs().getQueueAttributes(r -> r.queueUrl(url)
                .attributeNames(QueueAttributeName.ALL)).attributesAsStrings());
        attributes.keySet().removeAll(VOLATILE);
        return attributes;
    }

    /** A redrive policy's fields as text: SQS gives maxReceiveCount as a number or a string, as it was set. */
    private static String redrive(String policy) throws IOException {
        Map<String, String> fields = new TreeMap<>();
        JSON.readTree(policy).properties().forEach(e -> fields.put(e.getKey(), e.getValue().asText()));
        return fields.toString();
    }

    private static void topic(String localArn, String motoArn, Names names, List<Difference> out) {
        Map<String, String> ours = AWS.sns().getTopicAttributes(r -> r.topicArn(localArn)).attributes();
        Map<String, String> theirs = AWS.sns().getTopicAttributes(r -> r.topicArn(motoArn)).attributes();
        if (!names.ours(localArn).equals(names.theirs(motoArn))) {
            out.add(new Difference("AWS::SNS::Topic", "TopicName", "local " + localArn + ", moto " + motoArn));
        }
        // The key's id is made up by each engine: whether the topic is encrypted is what compares.
        boolean ourKey = ours.containsKey("KmsMasterKeyId");
        boolean theirKey = theirs.containsKey("KmsMasterKeyId");
        if (ourKey != theirKey) {
            out.add(new Difference("AWS::SNS::Topic", "KmsMasterKeyId", "local " + (ourKey ? "encrypted" : "not encrypted")
                    + ", moto " + (theirKey ? "encrypted" : "not encrypted")));
        }
        for (String attribute : List.of("DisplayName", "FifoTopic", "ContentBasedDeduplication")) {
            if (!Objects.equals(ours.get(attribute), theirs.get(attribute))) {
                out.add(new Difference("AWS::SNS::Topic", attribute, "local " + ours.get(attribute) + ", moto "
                        + theirs.get(attribute)));
            }
        }
    }

    private static void table(String localName, String motoName, Names names, List<Difference> out) {
        Map<String, String> ours = table(AWS.dynamoDb().describeTable(r -> r.tableName(localName)).table(), names.local());
        Map<String, String> theirs = table(MOTO_DYNAMODB.describeTable(r -> r.tableName(motoName)).table(), names.moto());
        for (String property : new TreeSet<>(union(ours.keySet(), theirs.keySet()))) {
            if (!Objects.equals(ours.get(property), theirs.get(property))) {
                out.add(new Difference("AWS::DynamoDB::Table", property, "local " + ours.get(property) + ", moto "
                        + theirs.get(property)));
            }
        }
    }

    /** A table's description by CloudFormation property: what the template sets. */
    private static Map<String, String> table(TableDescription table, String prefix) {
        Map<String, String> out = new TreeMap<>();
        out.put("TableName", table.tableName().replace(prefix, "<prefix>"));
        out.put("KeySchema", table.keySchema().toString());
        out.put("AttributeDefinitions", new TreeSet<>(table.attributeDefinitions().stream()
                .map(a -> a.attributeName() + ":" + a.attributeTypeAsString()).toList()).toString());
        BillingMode billing = table.billingModeSummary() == null || table.billingModeSummary().billingMode() == null
                ? BillingMode.PROVISIONED : table.billingModeSummary().billingMode();
        out.put("BillingMode", billing.toString());
        if (billing == BillingMode.PROVISIONED) {
            out.put("ProvisionedThroughput", table.provisionedThroughput().readCapacityUnits() + "/"
                    + table.provisionedThroughput().writeCapacityUnits());
        }
        List<String> indexes = new ArrayList<>();
        table.globalSecondaryIndexes().forEach(index -> indexes.add(index.indexName() + " " + index.keySchema() + " "
                + index.projection().projectionTypeAsString() + index.projection().nonKeyAttributes()
                + (billing == BillingMode.PROVISIONED ? " " + index.provisionedThroughput().readCapacityUnits() + "/"
                        + index.provisionedThroughput().writeCapacityUnits() : "")));
        out.put("GlobalSecondaryIndexes", new TreeSet<>(indexes).toString());
        return out;
    }

    private static void bucket(String localName, String motoName, Names names, List<Difference> out) {
        if (!names.ours(localName).equals(names.theirs(motoName))) {
            out.add(new Difference("AWS::S3::Bucket", "BucketName", "local " + localName + ", moto " + motoName));
        }
        String ours = algorithms(localName);
        String theirs = algorithms(motoName);
        if (!ours.equals(theirs)) {
            out.add(new Difference("AWS::S3::Bucket", "BucketEncryption", "local " + ours + ", moto " + theirs));
        }
    }

    /** The bucket's default encryption algorithms (moto's CloudFormation drops BucketKeyEnabled: MOTO_CANNOT). */
    private static String algorithms(String bucket) {
        return AWS.s3().getBucketEncryption(r -> r.bucket(bucket)).serverSideEncryptionConfiguration().rules().stream()
                .map(rule -> rule.applyServerSideEncryptionByDefault().sseAlgorithmAsString()).toList().toString();
    }

    /**
     * The transformed template as moto's CloudFormation can take it: the types compared and {@link #SENT},
     * no Outputs (they name what is left out), and Number parameters declared as
     * String: moto reads a Number parameter as a number, and Fn::FindInMap then misses the mapping's
     * string key (CloudFormation passes every parameter as a string).
     */
    private static ObjectNode forMoto(JsonNode template) {
        ObjectNode copy = template.deepCopy();
        copy.remove("Outputs");
        ObjectNode resources = (ObjectNode) copy.get("Resources");
        List<String> left = new ArrayList<>();
        resources.properties().forEach(e -> {
            String type = e.getValue().path("Type").asText();
            if (!COMPARED.contains(type) && !SENT.contains(type)) {
                left.add(e.getKey());
            }
        });
        resources.remove(left);
        // A DependsOn naming a resource left out would fail the whole stack.
        resources.properties().forEach(e -> {
            JsonNode dependsOn = e.getValue().get("DependsOn");
            if (dependsOn != null) {
                List<String> kept = new ArrayList<>();
                (dependsOn.isArray() ? dependsOn : JSON.createArrayNode().add(dependsOn)).forEach(d -> {
                    if (!left.contains(d.asText())) {
                        kept.add(d.asText());
                    }
                });
                ((ObjectNode) e.getValue()).set("DependsOn", JSON.valueToTree(kept));
            }
        });
        copy.path("Parameters").properties().forEach(e -> {
            ObjectNode declaration = (ObjectNode) e.getValue();
            if (declaration.path("Type").asText().equals("Number")) {
                declaration.put("Type", "String");
                declaration.remove(List.of("MinValue", "MaxValue"));
                if (declaration.has("Default")) {
                    declaration.put("Default", declaration.get("Default").asText());
                }
            }
        });
        return copy;
    }

    /**
     * "Type.Property" for every difference the emulation table lists: {@link Emulation}'s catalogue, which
     * EmulationTest keeps equal to docs/DESIGN.md's table.
     */
    private static Set<String> explained() {
        Set<String> out = new TreeSet<>();
        for (Emulation.Coverage coverage : Emulation.catalogue()) {
            coverage.differences().keySet().forEach(property -> out.add(coverage.type() + "." + property));
        }
        return out;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> out = new TreeSet<>(a);
        out.addAll(b);
        return out;
    }
}
