package datalake.emulators.stack;

import com.fasterxml.jackson.databind.JsonNode;
import datalake.emulators.AwsEndpoints;
import datalake.emulators.calls.CallRecorder;
import datalake.emulators.calls.StackRecord;
import datalake.emulators.template.Repository;
import datalake.emulators.template.ResolvedTemplate;
import datalake.emulators.template.SamTransform;
import datalake.emulators.template.Template;
import datalake.emulators.template.TemplateException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.HashSet;
import java.util.UUID;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * A stack of a SAM template built on emulators, as {@code sam deploy} would build it in AWS: the template
 * transformed by aws-sam-translator ({@link SamTransform}), its parameters, rules and conditions resolved
 * ({@link ResolvedTemplate}), and what the emulators can hold created ({@link Emulation}: queues, topics,
 * subscriptions, buckets with their notifications, tables). What Lambda and API Gateway would run is
 * given as settings: each function's environment ({@link #function}), the SQS event sources
 * ({@link #eventSource}) and the HTTP API's routes ({@link #api}).
 *
 * <p>Each principal of the template (a function's role; a managed policy that operators attach) signs
 * with credentials of its own ({@link #endpointsOf}), so that {@link CallRecorder} can record its calls
 * for the IAM proof.
 */
public final class TemplateStack {
    /** The secret of every principal's keys: the emulators check none. */
    private static final String SECRET = "datalakelocal";
    /** Lambda's concurrency for an SQS source without MaximumConcurrency is up to 1,000; locally, this many pollers. */
    static final int DEFAULT_POLLERS = 5;

    private final String id;
    private final AwsEndpoints aws;
    private final ResolvedTemplate resolved;

    private TemplateStack(String id, AwsEndpoints aws, ResolvedTemplate resolved) {
        this.id = id;
        this.aws = aws;
        this.resolved = resolved;
    }

    public static Builder builder(AwsEndpoints aws) {
        return new Builder(aws);
    }

    /** The settings of a stack already resolved, with nothing created (what its functions, sources and API read). */
    static TemplateStack settingsOf(AwsEndpoints aws, ResolvedTemplate resolved) {
        return new TemplateStack(newId(), aws, resolved);
    }

    /** A stack's {@link #id()}: ten hex digits of a random UUID. */
    private static String newId() {
        return UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    }

    /** Unique to this stack (its principals' access keys carry it). */
    public String id() {
        return id;
    }

    public ResolvedTemplate resolved() {
        return resolved;
    }

    /** The emulators, with the test's own credentials (calls through them are nobody's in the recording). */
    public AwsEndpoints aws() {
        return aws;
    }

    public String ref(String logicalId) {
        return resolved.ref(logicalId);
    }

    public String getAtt(String logicalId, String attribute) {
        return resolved.getAtt(logicalId, attribute);
    }

    /**
     * The emulators with the credentials of a principal: a function's logical id (it signs as its role) or
     * a standalone managed policy's (an operator holding it), as the template declares them.
     */
    public AwsEndpoints endpointsOf(String principal) {
        return aws.withCredentials(credentials(principal, principalRole(principal)));
    }

    /** The credentials a principal signs with (what {@link #endpointsOf} uses). */
    public AwsCredentialsProvider credentialsOf(String principal) {
        return credentials(principal, principalRole(principal));
    }

    /** The emulators as Lambda's SQS poller of a function uses them: with the function's role. */
    public AwsEndpoints eventSourceEndpoints(String function) {
        function(function);
        return aws.withCredentials(credentials(function, "event source"));
    }

    /** A function of the template, as Lambda would run it here. */
    public FunctionSettings function(String logicalId) {
        requireType(logicalId, "AWS::Lambda::Function");
        JsonNode p = resolved.properties(logicalId);
        Map<String, String> env = new LinkedHashMap<>();
        p.path("Environment").path("Variables").properties().forEach(e -> {
            // Lambda's variables are strings: CloudFormation passes a number or boolean as its text and
            // refuses a list or an object.
            if (e.getValue().isContainerNode() || e.getValue().isNull()) {
                throw new TemplateException("the environment variable " + e.getKey() + " of " + logicalId
                        + " is not text, a number or a boolean (" + e.getValue() + "); Lambda takes only strings.");
            }
            env.put(e.getKey(), e.getValue().asText());
        });
        env.putAll(endpointsOf(logicalId).endpointEnvironment());
        String name = resolved.ref(logicalId);
        env.put("AWS_LAMBDA_FUNCTION_NAME", name);
        return new FunctionSettings(logicalId, name, p.path("Handler").asText(),
                Duration.ofSeconds(p.path("Timeout").asLong(3)), p.path("MemorySize").asInt(128), env);
    }

    /**
     * Every event source mapping that feeds the function, in the template's order. Only SQS queues of the
     * stack are polled locally: a mapping from any other source is refused rather than left unpolled.
     */
    public List<SqsEventSource> eventSources(String function) {
        String functionArn = resolved.getAtt(function, "Arn");
        List<SqsEventSource> sources = new ArrayList<>();
        for (Template.Resource mapping : resolved.template().ofType("AWS::Lambda::EventSourceMapping")) {
            if (!resolved.exists(mapping.logicalId())) {
                continue;
            }
            JsonNode p = resolved.properties(mapping.logicalId());
            String target = p.path("FunctionName").asText();
            if (!(target.equals(resolved.ref(function)) || target.equals(functionArn) || target.startsWith(functionArn + ":"))) {
                continue;
            }
            String source = p.path("EventSourceArn").asText();
            if (!source.startsWith("arn:" + resolved.pseudoParameter("AWS::Partition") + ":sqs:")) {
                throw new TemplateException("the event source mapping " + mapping.logicalId() + " of " + function
                        + " reads " + source + "; the local stack polls SQS queues only.");
            }
            String queue = logicalIdOf("AWS::SQS::Queue", "Arn", source);
            boolean reportFailures = false;
            for (JsonNode type : p.path("FunctionResponseTypes")) {
                reportFailures |= type.asText().equals("ReportBatchItemFailures");
            }
            sources.add(new SqsEventSource(function, queue, resolved.ref(queue), resolved.getAtt(queue, "Arn"),
                    p.path("BatchSize").asInt(10), Duration.ofSeconds(p.path("MaximumBatchingWindowInSeconds").asLong(0)),
                    p.path("ScalingConfig").path("MaximumConcurrency").asInt(DEFAULT_POLLERS), reportFailures));
        }
        return List.copyOf(sources);
    }

    /** An HTTP API of the template: its routes, their functions and authorisation. */
    public ApiSettings api(String apiLogicalId) {
        requireType(apiLogicalId, "AWS::ApiGatewayV2::Api");
        String apiId = resolved.ref(apiLogicalId);
        List<ApiSettings.Route> routes = new ArrayList<>();
        for (Template.Resource route : resolved.template().ofType("AWS::ApiGatewayV2::Route")) {
            if (!resolved.exists(route.logicalId())) {
                continue;
            }
            JsonNode p = resolved.properties(route.logicalId());
            if (!p.path("ApiId").asText().equals(apiId)) {
                continue;
            }
            String integration = logicalIdOf("AWS::ApiGatewayV2::Integration", null,
                    p.path("Target").asText().replaceFirst("^integrations/", ""));
            String uri = resolved.properties(integration).path("IntegrationUri").asText();
            String function = null;
            for (Template.Resource candidate : resolved.template().ofType("AWS::Lambda::Function")) {
                if (resolved.exists(candidate.logicalId())) {
                    String arn = resolved.getAtt(candidate.logicalId(), "Arn");
                    if (uri.equals(arn) || uri.startsWith(arn + ":")) {
                        function = candidate.logicalId();
                    }
                }
            }
            if (function == null) {
                throw new TemplateException("the route " + p.path("RouteKey").asText() + " (" + route.logicalId()
                        + ") integrates " + integration + ", whose IntegrationUri " + uri
                        + " is no Lambda function of this stack; the local API runs functions only.");
            }
            Optional<String> issuer = Optional.empty();
            List<String> audience = new ArrayList<>();
            if (p.has("AuthorizerId")) {
                JsonNode jwt = resolved.properties(logicalIdOf("AWS::ApiGatewayV2::Authorizer", null,
                        p.path("AuthorizerId").asText())).path("JwtConfiguration");
                issuer = Optional.of(jwt.path("Issuer").asText());
                jwt.path("Audience").forEach(a -> audience.add(a.asText()));
            }
            routes.add(new ApiSettings.Route(p.path("RouteKey").asText(), function,
                    p.path("AuthorizationType").asText("NONE"), issuer, audience));
        }
        return new ApiSettings(apiLogicalId, routes);
    }

    /** The logical id of the resource of {@code type} whose Ref (or attribute) is {@code value}. */
    private String logicalIdOf(String type, String attribute, String value) {
        for (Template.Resource resource : resolved.template().ofType(type)) {
            if (resolved.exists(resource.logicalId()) && value.equals(attribute == null
                    ? resolved.ref(resource.logicalId()) : resolved.getAtt(resource.logicalId(), attribute))) {
                return resource.logicalId();
            }
        }
        throw new TemplateException("no " + type + " of the stack is " + value + ".");
    }

    private void requireType(String logicalId, String type) {
        Template.Resource resource = resolved.template().resource(logicalId);
        if (!resource.type().equals(type) || !resolved.exists(logicalId)) {
            throw new TemplateException(logicalId + " is not a " + type + " of this stack.");
        }
    }

    /** How a principal acts: a function runs as its role; a managed policy is held by an operator. */
    private String principalRole(String principal) {
        String type = resolved.template().resource(principal).type();
        return switch (type) {
            case "AWS::Lambda::Function" -> "function";
            case "AWS::IAM::ManagedPolicy" -> "operator";
            default -> throw new TemplateException(principal + " (" + type + ") is not a principal: name a function or"
                    + " a managed policy.");
        };
    }

    private StaticCredentialsProvider credentials(String principal, String acting) {
        // Letters and digits only, as Emulators.ACCESS_KEY_ID: what every emulator takes in an access key id.
        String keyId = "AK" + id + principal + (acting.equals("event source") ? "Poller" : "");
        CallRecorder.register(new StackRecord(id, resolved.pseudoParameter("AWS::StackName"), resolved.template().id(),
                resolved.accountId(), resolved.region(), resolved.parameters()), keyId, principal, acting);
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(keyId, SECRET));
    }

    /** What to build and where. */
    public static final class Builder {
        private final AwsEndpoints aws;
        private final Map<String, String> parameters = new LinkedHashMap<>();
        private final Set<String> withheld = new HashSet<>();
        private Set<String> types;
        private Path template = Repository.template();
        private String stackName = SamTransform.Deployment.DEFAULT_STACK_NAME;

        private Builder(AwsEndpoints aws) {
            this.aws = Objects.requireNonNull(aws, "aws");
        }

        /** A SAM template; the repository's template.yaml unless given (a test's edited copy of it). */
        public Builder template(Path samTemplate) {
            this.template = Objects.requireNonNull(samTemplate, "samTemplate");
            return this;
        }

        /** Parameters' values, as {@code sam deploy --parameter-overrides Name=Value ...}. */
        public Builder parameters(Map<String, String> values) {
            parameters.putAll(values);
            return this;
        }

        /**
         * Leaves a property of a resource out when the resource is created: a test-side change, for what an
         * emulator does differently (moto sends no notification for a delete marker, so a bucket that
         * must notify deletes is made without its VersioningConfiguration).
         */
        public Builder withhold(String logicalId, String property) {
            withheld.add(logicalId + "." + property);
            return this;
        }

        /**
         * Creates only the resources of these types (a test of one component needs only its tables): a
         * test-side reduction, the rest of the stack is not made.
         */
        public Builder onlyTypes(Set<String> resourceTypes) {
            this.types = Set.copyOf(resourceTypes);
            return this;
        }

        /** AWS::StackName (unnamed resources are named after it). */
        public Builder stackName(String name) {
            this.stackName = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * Transforms and resolves the template, then creates its resources on the emulators.
         *
         * @throws TemplateException when the template or a parameter is refused, as CloudFormation would
         */
        public TemplateStack build() {
            ResolvedTemplate resolved = SamTransform.transform(template,
                    new SamTransform.Deployment(stackName, aws.accountId(), aws.region(), parameters)).resolve().build();
            return new TemplateStack(newId(), aws, EmulatorResources.create(aws, resolved, withheld, types));
        }
    }
}
