package datalake.emulators.stack;

import com.fasterxml.jackson.databind.JsonNode;
import datalake.emulators.template.Template;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What the local stack does with each resource type of the template: created on an emulator, used as
 * settings (a function's environment, an event source, the API's routes), or not emulated, and for each
 * property whether it is applied or why not. {@link #uncovered} finds what the template uses that this
 * catalogue does not name, so that nothing differs silently (EmulationTest runs it on template.yaml);
 * {@link #markdown()} is the table docs/DESIGN.md shows (the same test keeps them equal).
 */
final class Emulation {
    /** How one type is treated. */
    public enum Treatment {
        /** Created on moto or dynalite. */
        CREATED("created"),
        /** Read as settings: the functions, their event sources and the API run in the JVM. */
        SETTINGS("settings"),
        /** Nothing emulates it. */
        NOT_EMULATED("not emulated");

        private final String words;

        Treatment(String words) {
            this.words = words;
        }
    }

    /**
     * One type.
     *
     * @param type        the CloudFormation type
     * @param treatment   what the local stack does with it
     * @param applied     the properties applied as written; a dotted path ({@code A.B}) names a property inside
     *                    another (inside each element of a list), and once a property's inner ones are named,
     *                    every inner property the template uses must be named too
     * @param differences properties not applied (or applied only in part), each with what differs, named as above
     * @param note        for the whole type: what differs, or where it is checked instead
     */
    public record Coverage(String type, Treatment treatment, Set<String> applied, Map<String, String> differences,
            String note) {
    }

    private static final Map<String, Coverage> CATALOGUE = new LinkedHashMap<>();

    static {
        created("AWS::DynamoDB::Table", "dynalite",
                Set.of("TableName", "AttributeDefinitions", "KeySchema", "BillingMode",
                        "ProvisionedThroughput", "GlobalSecondaryIndexes.IndexName", "GlobalSecondaryIndexes.KeySchema",
                        "GlobalSecondaryIndexes.Projection", "GlobalSecondaryIndexes.ProvisionedThroughput"),
                Map.of("TimeToLiveSpecification",
                        "set (kept by dynalite.js: dynalite has no UpdateTimeToLive); nothing local deletes expired"
                                + " items (AWS deletes them within about two days)",
                        "GlobalSecondaryIndexes", "an existing table with other indexes is refused: dynalite cannot"
                                + " add or drop one",
                        "SSESpecification", "dynalite does not encrypt",
                        "PointInTimeRecoverySpecification", "dynalite keeps no backups",
                        "ContributorInsightsSpecification", "no Contributor Insights (suggest reads the partition"
                                + " model's counts)"));
        created("AWS::SQS::Queue", "moto",
                Set.of("QueueName", "VisibilityTimeout", "MessageRetentionPeriod", "MaximumMessageSize", "DelaySeconds",
                        "ReceiveMessageWaitTimeSeconds", "RedrivePolicy"),
                Map.of("SqsManagedSseEnabled", "set, but moto does not encrypt",
                        "KmsMasterKeyId", "no KMS locally"));
        created("AWS::SQS::QueuePolicy", "moto stores the policy and does not evaluate it",
                Set.of("Queues", "PolicyDocument"), Map.of());
        created("AWS::SNS::Topic", "moto",
                Set.of("TopicName"),
                Map.of("KmsMasterKeyId", "no KMS locally: not encrypted"));
        created("AWS::SNS::TopicPolicy", "moto stores the policy and does not evaluate it",
                Set.of("Topics", "PolicyDocument"), Map.of());
        created("AWS::SNS::Subscription", "moto",
                Set.of("TopicArn", "Endpoint", "RawMessageDelivery", "FilterPolicy"),
                Map.of("Protocol", "sqs only: moto sends no e-mail (AlarmEmailSubscription is not made)",
                        "RedrivePolicy", "set; moto never dead-letters"));
        created("AWS::S3::Bucket", "moto",
                Set.of("BucketName", "BucketEncryption", "PublicAccessBlockConfiguration", "OwnershipControls",
                        "NotificationConfiguration.TopicConfigurations", "NotificationConfiguration.QueueConfigurations"),
                Map.of("NotificationConfiguration", "topic and queue configurations with their events and key filters;"
                                + " moto omits the sequencer of each record",
                        "VersioningConfiguration", "set, except by `scripts/local.sh` and tests that delete (moto"
                                + " notifies no delete marker; others send what S3 sends)",
                        "LifecycleConfiguration", "not set: moto never expires objects"));
        created("AWS::Events::Rule", "moto",
                Set.of("Name", "EventPattern", "State", "Targets"), Map.of("Description", "nothing to emulate"));
        notEmulated("AWS::S3::BucketPolicy", "its TLS-only Deny would refuse the local plain HTTP");
        settings("AWS::Lambda::Function", "the handler runs in the JVM of the runner or the test",
                Set.of("FunctionName", "Handler", "Environment", "Timeout", "MemorySize", "Role"),
                Map.of("Runtime", "the JVM at hand, not Lambda's java21",
                        "Architectures", "the machine's",
                        "SnapStart", "no snapshots (priming is tested on its own)",
                        "LoggingConfig", "logs go to standard output",
                        "Code", "the classpath, not the jar",
                        "Description", "nothing to emulate",
                        "Tags", "nothing to emulate"));
        settings("AWS::Lambda::EventSourceMapping", "the local SQS poller (SqsLambdaPoller)",
                Set.of("EventSourceArn", "FunctionName", "BatchSize", "MaximumBatchingWindowInSeconds", "ScalingConfig",
                        "FunctionResponseTypes"),
                Map.of());
        settings("AWS::ApiGatewayV2::Api", "the local HTTP API (HttpApiServer), payload format 2.0",
                Set.of(), Map.of("Name", "nothing to emulate", "Description", "nothing to emulate",
                        "ProtocolType", "HTTP only"));
        settings("AWS::ApiGatewayV2::Route", "its route key and authorization type",
                Set.of("ApiId", "RouteKey", "Target", "AuthorizationType", "AuthorizerId"), Map.of());
        settings("AWS::ApiGatewayV2::Integration", "the function it invokes",
                Set.of("ApiId", "IntegrationUri", "PayloadFormatVersion"),
                Map.of("IntegrationType", "AWS_PROXY only", "TimeoutInMillis", "no timeout locally"));
        settings("AWS::ApiGatewayV2::Authorizer", "read, not enforced",
                Set.of("ApiId", "JwtConfiguration", "AuthorizerType"),
                Map.of("IdentitySource", "JWTs are not verified locally (no issuer to ask)",
                        "Name", "nothing to emulate"));
        notEmulated("AWS::ApiGatewayV2::Stage", "access logs and rate throttling (the local API answers 429 only when"
                + " full)");
        notEmulated("AWS::KMS::Key", "no KMS locally (KeyPolicyTest checks the key policy)");
        notEmulated("AWS::IAM::Role", "no IAM locally (IamProofIT checks every recorded call)");
        notEmulated("AWS::IAM::ManagedPolicy", "as roles");
        notEmulated("AWS::Lambda::Version", "the handler runs as built; version numbers follow template order");
        notEmulated("AWS::Lambda::Alias", "no aliases (nor SnapStart, which restores published versions)");
        notEmulated("AWS::Lambda::Permission", "nothing checks who may invoke a function locally");
        notEmulated("AWS::Logs::LogGroup", "logs go to standard output");
        notEmulated("AWS::CloudWatch::Alarm", "no CloudWatch: alarms never fire (tests check the metrics' log"
                + " lines)");
        notEmulated("AWS::CloudWatch::Dashboard", "no CloudWatch");
        notEmulated("AWS::ApplicationAutoScaling::ScalableTarget", "no auto scaling: provisioned tables keep their"
                + " seed (BillingModeTest checks the targets)");
        notEmulated("AWS::ApplicationAutoScaling::ScalingPolicy", "as scalable targets (BillingModeTest)");
    }

    private Emulation() {
    }

    private static void created(String type, String note, Set<String> applied, Map<String, String> differences) {
        CATALOGUE.put(type, new Coverage(type, Treatment.CREATED, applied, differences, note));
    }

    private static void settings(String type, String note, Set<String> applied, Map<String, String> differences) {
        CATALOGUE.put(type, new Coverage(type, Treatment.SETTINGS, applied, differences, note));
    }

    private static void notEmulated(String type, String note) {
        CATALOGUE.put(type, new Coverage(type, Treatment.NOT_EMULATED, Set.of(), Map.of(), note));
    }

    /** Every type the local stack knows, in the order of the table. */
    public static List<Coverage> catalogue() {
        return List.copyOf(CATALOGUE.values());
    }

    /**
     * What the template uses that this catalogue does not name: a resource type, or a property of a created
     * or settings type, at any depth of its properties, that is neither applied nor listed with its
     * difference. Both branches of an Fn::If count (each may be the stack's). Empty when nothing differs
     * silently.
     */
    public static List<String> uncovered(Template template) {
        List<String> out = new ArrayList<>();
        for (Template.Resource resource : template.resources().values()) {
            Coverage coverage = CATALOGUE.get(resource.type());
            if (coverage == null) {
                out.add(resource.logicalId() + ": the type " + resource.type() + " is not in the local stack's catalogue");
                continue;
            }
            if (coverage.treatment() != Treatment.NOT_EMULATED) {
                uncovered(resource, coverage, "", resource.properties(), out);
            }
        }
        return out;
    }

    /** The properties inside {@code value} (at {@code path}) that the coverage does not name. */
    private static void uncovered(Template.Resource resource, Coverage coverage, String path, JsonNode value,
            List<String> out) {
        if (value.isArray()) {
            value.forEach(element -> uncovered(resource, coverage, path, element, out));
            return;
        }
        if (!value.isObject()) {
            return;
        }
        if (value.size() == 1) {
            String function = value.fieldNames().next();
            if (function.equals("Fn::If")) {
                for (int branch = 1; branch < value.get(function).size(); branch++) {
                    uncovered(resource, coverage, path, value.get(function).get(branch), out);
                }
                return;
            }
            if (function.equals("Ref") || function.startsWith("Fn::")) {
                return;
            }
        }
        value.properties().forEach(e -> {
            String property = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
            if (!coverage.applied().contains(property) && !coverage.differences().containsKey(property)) {
                out.add(resource.logicalId() + ": the property " + resource.type() + "." + property
                        + " is neither applied locally nor listed with its difference");
            } else if (Stream.concat(coverage.applied().stream(), coverage.differences().keySet().stream())
                    .anyMatch(named -> named.startsWith(property + "."))) {
                uncovered(resource, coverage, property, e.getValue(), out);
            }
        });
    }

    /** The table of docs/DESIGN.md, "What the local stack does not do". */
    public static String markdown() {
        StringBuilder out = new StringBuilder("| resource type | locally | what differs |\n|---|---|---|\n");
        for (Coverage coverage : CATALOGUE.values()) {
            List<String> differences = new ArrayList<>();
            coverage.differences().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(e -> differences.add("`" + e.getKey() + "`: " + e.getValue()));
            out.append("| `").append(coverage.type()).append("` | ").append(coverage.treatment().words).append(": ")
                    .append(coverage.note()).append(" | ").append(differences.isEmpty() ? "" : String.join("; ", differences))
                    .append(" |\n");
        }
        return out.toString();
    }
}
