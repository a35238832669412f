package datalake.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import datalake.dynamodb.RecordItems;
import datalake.lambda.Environment;
import datalake.lambda.EnvironmentVariable.Reader;
import datalake.lambda.EnvironmentVariable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * template.yaml is the single source of the deployed resources: these checks keep it in line with the
 * code (environment names, table layout, names shared with the local runner) and with the security
 * rules (least privilege, encryption, TLS only, API not open). cfn-lint, sam validate and checkov run in
 * scripts/check-template.sh, which scripts/test.sh runs after the build.
 */
class TemplateTest {
    private static JsonNode resources;
    private static String text;

    @BeforeAll
    static void readTemplate() throws IOException {
        Path template = repoRoot().resolve("template.yaml");
        text = Files.readString(template);
        // Jackson's YAML reader keeps a tagged scalar's value and drops the CloudFormation tag
        // (!Ref X reads as "X"), which is all these checks need.
        resources = new ObjectMapper(new YAMLFactory()).readTree(text).get("Resources");
    }

    static Path repoRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve(".ci"))) {
            dir = dir.getParent();
        }
        assertNotNull(dir, "the repository root (the folder with .ci) is above the working directory");
        return dir;
    }

    private static List<JsonNode> ofType(String type) {
        List<JsonNode> out = new ArrayList<>();
        resources.forEach(r -> {
            if (type.equals(r.path("Type").asText())) {
                out.add(r);
            }
        });
        return out;
    }

    @Test
    void declaresEveryResourceOfThePipeline() {
        for (String name : List.of("StorageBucket", "StorageBucketPolicy", "UploadTopic", "IngestQueue",
                "IngestDeadLetterQueue", "UploadSubscription", "ReportTopic", "RecordsTable", "LatestTable",
                "IngesterFunction", "QueryFunction", "BackfillFunction", "BackfillJobRole", "OperationsBucket",
                "HttpApi", "DefaultRoute", "Dashboard",
                "DeadLetterQueueNotEmptyAlarm", "IngesterErrorsAlarm", "IngesterThrottlesAlarm", "ReportsNotPublishedAlarm",
                "TablesThrottledAlarm",
                "IndexOperatorPolicy",
                "QueryErrorsAlarm", "QueryThrottlesAlarm")) {
            assertTrue(resources.has(name), name + " is declared");
        }
    }

    @Test
    void noAllowStatementUsesAWildcardActionOrAnUnscopedResource() {
        List<String> problems = new ArrayList<>();
        resources.properties().forEach(e -> collectStatements(e.getValue(), e.getKey(), problems));
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    /** Walks every policy document of a resource; a key policy's Resource "*" means the key itself. */
    private static void collectStatements(JsonNode node, String where, List<String> problems) {
        if (node.isObject()) {
            if (node.has("Effect") && node.has("Action")) {
                checkStatement(node, where, problems);
            }
            node.properties().forEach(e -> collectStatements(e.getValue(), where, problems));
        } else if (node.isArray()) {
            node.forEach(n -> collectStatements(n, where, problems));
        }
    }

    private static void checkStatement(JsonNode statement, String where, List<String> problems) {
        if (!"Allow".equals(statement.path("Effect").asText())) {
            return; // a Deny may be broad (the TLS-only bucket policy denies s3:* without TLS)
        }
        for (JsonNode action : asList(statement.get("Action"))) {
            if (action.asText().contains("*")) {
                problems.add(where + " allows the wildcard action " + action.asText());
            }
        }
        boolean keyPolicy = resources.path(where).path("Type").asText().equals("AWS::KMS::Key");
        // Actions that name no resource type in the Service Authorization Reference take "*" only.
        boolean takesNoResource = asList(statement.get("Action")).stream().allMatch(a -> a.asText().equals("s3:CreateJob"));
        for (JsonNode resource : asList(statement.get("Resource"))) {
            if (resource.isTextual() && resource.asText().equals("*") && !keyPolicy && !takesNoResource) {
                problems.add(where + " allows " + statement.get("Action") + " on every resource");
            }
        }
    }

    private static List<JsonNode> asList(JsonNode node) {
        List<JsonNode> out = new ArrayList<>();
        if (node == null) {
            return out;
        }
        if (node.isArray()) {
            node.forEach(out::add);
        } else {
            out.add(node);
        }
        return out;
    }

    @Test
    void noSecretIsInTheFunctionsEnvironmentOrTheParameters() throws IOException {
        // Lambda environment variables are readable by anyone with lambda:GetFunctionConfiguration: the
        // functions authenticate with their roles, so no variable may name or hold a credential.
        JsonNode root = new ObjectMapper(new YAMLFactory()).readTree(text);
        List<JsonNode> environments = new ArrayList<>();
        environments.add(root.path("Globals").path("Function").path("Environment").path("Variables"));
        ofType("AWS::Serverless::Function").forEach(f -> environments.add(f.path("Properties").path("Environment")
                .path("Variables")));
        List<String> problems = new ArrayList<>();
        java.util.regex.Pattern secretName = java.util.regex.Pattern.compile(
                "(?i).*(SECRET|PASSWORD|PASSWD|TOKEN|CREDENTIAL|PRIVATE|ACCESS_KEY|API_KEY).*");
        // A secret access key: 40 base64 characters, one at least a digit, '/' or '+' (which a long
        // property name such as TargetTrackingScalingPolicyConfiguration is not).
        java.util.regex.Pattern secretValue = java.util.regex.Pattern.compile(
                "(AKIA|ASIA)[A-Z0-9]{16}|(?<![A-Za-z0-9/+])(?=[A-Za-z]*[0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])|-----BEGIN");
        for (JsonNode variables : environments) {
            variables.properties().forEach(e -> {
                if (secretName.matcher(e.getKey()).matches()) {
                    problems.add("environment variable " + e.getKey() + " looks like a secret");
                }
                if (secretValue.matcher(e.getValue().toString()).find()) {
                    problems.add("environment variable " + e.getKey() + " holds what looks like a key");
                }
            });
        }
        root.path("Parameters").properties().forEach(e -> {
            if (secretName.matcher(e.getKey()).matches() || e.getValue().path("NoEcho").asBoolean(false)) {
                problems.add("parameter " + e.getKey() + " takes a secret");
            }
        });
        assertFalse(secretValue.matcher(text).find(), "template.yaml holds what looks like an access key or private key");
        assertEquals(List.of(), problems);
    }

    @Test
    void theIngesterRunsFullTieredCompilationAndTheQueryFunctionC1Only() throws IOException {
        // Given the JVM decision of docs/DESIGN.md ("Decisions, and why"): a function's own
        // JAVA_TOOL_OPTIONS, else Globals'.
        String globals = new ObjectMapper(new YAMLFactory()).readTree(text).path("Globals").path("Function")
                .path("Environment").path("Variables").path("JAVA_TOOL_OPTIONS").asText("");
        // When each function's options are read
        String ingester = resources.path("IngesterFunction").path("Properties").path("Environment").path("Variables")
                .path("JAVA_TOOL_OPTIONS").asText(globals);
        String query = resources.path("QueryFunction").path("Properties").path("Environment").path("Variables")
                .path("JAVA_TOOL_OPTIONS").asText(globals);
        // Then the ingester compiles with C2 too, and the query function stops at C1
        assertTrue(ingester.contains("-XX:TieredStopAtLevel=4"), "the ingester's JAVA_TOOL_OPTIONS: " + ingester);
        assertTrue(query.contains("-XX:TieredStopAtLevel=1"), "the query function's JAVA_TOOL_OPTIONS: " + query);
    }

    @Test
    void eachFunctionGetsExactlyTheVariablesOfTheCatalogueItReads() throws IOException {
        JsonNode globals = new ObjectMapper(new YAMLFactory()).readTree(text).path("Globals").path("Function");
        Map<Reader, String> functions = Map.of(Reader.INGESTER, "IngesterFunction", Reader.QUERY, "QueryFunction",
                Reader.BACKFILL, "BackfillFunction");
        for (Map.Entry<Reader, String> function : functions.entrySet()) {
            Set<String> given = new HashSet<>();
            globals.path("Environment").path("Variables").fieldNames().forEachRemaining(given::add);
            resources.path(function.getValue()).path("Properties").path("Environment").path("Variables")
                    .fieldNames().forEachRemaining(given::add);
            given.remove("JAVA_TOOL_OPTIONS");
            Set<String> read = new HashSet<>();
            for (EnvironmentVariable variable : EnvironmentVariable.readBy(function.getKey())) {
                if (!variable.setByLambda()) {
                    read.add(variable.key());
                }
                if (variable.required() && !variable.setByLambda()) {
                    assertTrue(given.contains(variable.key()), function.getValue() + " is given " + variable.key());
                }
            }
            Set<String> unread = new HashSet<>(given);
            unread.removeAll(read);
            assertEquals(Set.of(), unread, function.getValue() + " is given variables it does not read");
            for (String name : given) {
                assertFalse(name.startsWith("AWS_"), name + " is Lambda's to set");
            }
        }
        for (String name : List.of("DATALAKE_DYNAMODB_TABLE", "DATALAKE_LATEST_TABLE", "DATALAKE_STORAGE_URL",
                "DATALAKE_MAX_BUCKET_SPAN", "DATALAKE_REPORT_TOPIC_ARN", "DATALAKE_DLQ_URL", "DATALAKE_RETENTION_DAYS")) {
            assertTrue(text.contains(name + ":"), name + " is set for the functions");
        }
        assertEquals("java21", globals.path("Runtime").asText());
        assertEquals("arm64", globals.path("Architectures").get(0).asText());
        assertEquals("PublishedVersions", globals.path("SnapStart").path("ApplyOn").asText());
        assertEquals("datalake.ingester.IngesterHandler::handleRequest",
                resources.path("IngesterFunction").path("Properties").path("Handler").asText());
        assertEquals("datalake.query.QueryHandler::handleRequest",
                resources.path("QueryFunction").path("Properties").path("Handler").asText());
        assertEquals("datalake.ingester.BackfillHandler::handleRequest",
                resources.path("BackfillFunction").path("Properties").path("Handler").asText());
    }

    @Test
    void theIngesterReportsPartialBatchFailuresAndTheQueueHasADeadLetterQueue() {
        JsonNode event = resources.path("IngesterFunction").path("Properties").path("Events").path("Uploads")
                .path("Properties");
        assertEquals("ReportBatchItemFailures", event.path("FunctionResponseTypes").get(0).asText());
        JsonNode queue = resources.path("IngestQueue").path("Properties");
        // One parameter sets both the redrive and what the ingester takes for the last receive.
        assertEquals("IngestMaxReceiveCount", queue.path("RedrivePolicy").path("maxReceiveCount").asText());
        assertEquals("IngestMaxReceiveCount", resources.path("IngesterFunction").path("Properties").path("Environment")
                .path("Variables").path("DATALAKE_MAX_RECEIVE_COUNT").asText());
        assertEquals(5, parameters().path("IngestMaxReceiveCount").path("Default").asInt());
        // The visibility timeout follows the batching window: StackRulesTest, on the resolved template.
        assertTrue(queue.path("MaximumMessageSize").asInt() >= 65_536);
    }

    private static JsonNode parameters() {
        try {
            return new ObjectMapper(new YAMLFactory()).readTree(text).path("Parameters");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aBackfillJobRunsAsARoleThatOnlyInvokesTheBackfillAndReadsAndWritesTheOperationsBucket() {
        JsonNode role = resources.path("BackfillJobRole").path("Properties");
        assertEquals("batchoperations.s3.amazonaws.com", role.path("AssumeRolePolicyDocument").path("Statement").get(0)
                .path("Principal").path("Service").asText());
        List<String> actions = new ArrayList<>();
        role.path("Policies").get(0).path("PolicyDocument").path("Statement").forEach(st ->
                asList(st.get("Action")).forEach(a -> actions.add(a.asText())));
        assertEquals(List.of("lambda:InvokeFunction", "s3:GetObject", "s3:GetObjectVersion", "s3:PutObject",
                "s3:GetBucketLocation"), actions);
        // the function itself writes the index and reads the bucket, and nothing of SQS or SNS
        String policies = resources.path("BackfillFunction").path("Properties").path("Policies").toString();
        assertFalse(policies.contains("sqs:") || policies.contains("sns:"), policies);
    }

    @Test
    void tablesHaveTheLayoutTheCodeReadsAndWrites() {
        JsonNode records = resources.path("RecordsTable").path("Properties");
        assertEquals(RecordItems.TIME_INDEX_KEY, records.path("KeySchema").get(0).path("AttributeName").asText());
        assertEquals(RecordItems.RANGE_KEY, records.path("KeySchema").get(1).path("AttributeName").asText());
        JsonNode gsi = records.path("GlobalSecondaryIndexes").get(0);
        assertEquals(RecordItems.WORK_ID_INDEX, gsi.path("IndexName").asText());
        assertEquals(RecordItems.WORK_ID_INDEX_KEY, gsi.path("KeySchema").get(0).path("AttributeName").asText());
        assertEquals(RecordItems.RANGE_KEY, gsi.path("KeySchema").get(1).path("AttributeName").asText());
        assertTrue(text.contains("AttributeName: " + RecordItems.EXPIRES_AT), "TTL on expires_at");
        assertEquals(RecordItems.WHAT_WHERE_KEY, resources.path("LatestTable").path("Properties").path("KeySchema")
                .get(0).path("AttributeName").asText());
    }

    @Test
    void everythingIsEncryptedAndTheBucketIsPrivateAndTlsOnly() {
        for (JsonNode table : ofType("AWS::DynamoDB::Table")) {
            assertTrue(table.path("Properties").path("SSESpecification").path("SSEEnabled").asBoolean());
            assertTrue(table.path("Properties").path("PointInTimeRecoverySpecification")
                    .path("PointInTimeRecoveryEnabled").asBoolean());
        }
        for (JsonNode queue : ofType("AWS::SQS::Queue")) {
            assertTrue(queue.path("Properties").path("SqsManagedSseEnabled").asBoolean());
        }
        for (JsonNode topic : ofType("AWS::SNS::Topic")) {
            assertFalse(topic.path("Properties").path("KmsMasterKeyId").isMissingNode(), "topics are encrypted");
        }
        JsonNode bucket = resources.path("StorageBucket").path("Properties");
        assertFalse(bucket.path("BucketEncryption").isMissingNode());
        JsonNode block = bucket.path("PublicAccessBlockConfiguration");
        for (String flag : List.of("BlockPublicAcls", "BlockPublicPolicy", "IgnorePublicAcls", "RestrictPublicBuckets")) {
            assertTrue(block.path(flag).asBoolean(), flag);
        }
        JsonNode deny = resources.path("StorageBucketPolicy").path("Properties").path("PolicyDocument")
                .path("Statement").get(0);
        assertEquals("Deny", deny.path("Effect").asText());
        assertEquals("false", deny.path("Condition").path("Bool").path("aws:SecureTransport").asText());
    }

    @Test
    void theApiIsNotOpenByDefault() throws IOException {
        JsonNode parameters = new ObjectMapper(new YAMLFactory()).readTree(text).path("Parameters");
        assertEquals("AWS_IAM", parameters.path("ApiAuthMode").path("Default").asText());
        String authorization = resources.path("DefaultRoute").path("Properties").path("AuthorizationType").toString();
        assertFalse(authorization.contains("NONE"), authorization);
        assertTrue(authorization.contains("AWS_IAM"), authorization);
    }
}
