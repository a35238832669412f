package datalake.deploy;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import datalake.emulators.template.ResolvedTemplate;
import datalake.emulators.template.SamTransform;
import datalake.emulators.template.Template;
import datalake.emulators.template.TemplateException;
import datalake.lambda.Environment;
import datalake.lambda.EnvironmentVariable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What CloudFormation would refuse or trip over, found before a deploy does: names past a service's
 * limit, parameters that fail late, resources a rolled-back first create leaves behind, outputs a user
 * needs next. Each on the template after the SAM transform, resolved as a stack would be.
 */
class StackRulesTest {
    /** The longest region names (14 characters) and an account id. */
    private static final List<String> LONGEST_REGIONS = List.of("ap-southeast-7", "ap-northeast-3");
    private static final String ACCOUNT = "123456789012";

    /** Name properties and their services' limits (characters), and a pattern for those with rules. */
    private record Limit(String property, int length, Pattern pattern) {
    }

    private static final Map<String, Limit> LIMITS = Map.of(
            "AWS::S3::Bucket", new Limit("BucketName", 63, Pattern.compile("[a-z0-9][a-z0-9.-]*[a-z0-9]")),
            "AWS::SQS::Queue", new Limit("QueueName", 80, Pattern.compile("[A-Za-z0-9_-]+")),
            "AWS::SNS::Topic", new Limit("TopicName", 256, Pattern.compile("[A-Za-z0-9_-]+")),
            "AWS::DynamoDB::Table", new Limit("TableName", 255, Pattern.compile("[A-Za-z0-9_.-]+")),
            "AWS::Lambda::Function", new Limit("FunctionName", 64, Pattern.compile("[A-Za-z0-9_-]+")),
            "AWS::Logs::LogGroup", new Limit("LogGroupName", 512, Pattern.compile("[A-Za-z0-9_./#-]+")),
            "AWS::CloudWatch::Alarm", new Limit("AlarmName", 255, Pattern.compile("[ -~]+")),
            "AWS::CloudWatch::Dashboard", new Limit("DashboardName", 255, Pattern.compile("[A-Za-z0-9_-]+")),
            "AWS::ApiGatewayV2::Api", new Limit("Name", 128, Pattern.compile("[ -~]+")));

    @Test
    void everyNameFitsItsServiceWithTheLongestPrefixTheTemplateAllows() {
        Template template = SamTransform.repositoryTemplate();
        String prefix = longestMatch(template.parameters().path("NamePrefix").path("AllowedPattern").asText());
        String stage = longestMatch(template.parameters().path("StageName").path("AllowedPattern").asText());
        List<String> problems = new ArrayList<>();
        for (String region : LONGEST_REGIONS) {
            ResolvedTemplate stack = template.resolve().account(ACCOUNT, region)
                    .parameter("NamePrefix", prefix).parameter("StageName", stage).build();
            for (Template.Resource resource : template.resources().values()) {
                Limit limit = LIMITS.get(resource.type());
                if (limit == null || !stack.exists(resource.logicalId())
                        || !stack.properties(resource.logicalId()).has(limit.property())) {
                    continue;
                }
                String name = stack.properties(resource.logicalId()).path(limit.property()).asText();
                if (name.length() > limit.length() || !limit.pattern().matcher(name).matches()) {
                    problems.add(resource.logicalId() + "." + limit.property() + " \"" + name + "\" (" + name.length()
                            + " characters) breaks the limit of " + limit.length() + " or the pattern " + limit.pattern());
                }
            }
        }
        assertEquals(List.of(), problems, "with NamePrefix \"" + prefix + "\" (" + prefix.length() + " characters)");
    }

    @Test
    void aPrefixS3RefusesForABucketAndAMalformedAlarmAddressAreRefusedBeforeAnythingIsCreated() {
        Template template = SamTransform.repositoryTemplate();
        for (String prefix : List.of("xn--lake", "sthree-lake", "amzn-s3-demo-lake")) {
            TemplateException refused = assertThrows(TemplateException.class,
                    () -> template.resolve().parameter("NamePrefix", prefix).build(), prefix);
            assertTrue(refused.getMessage().contains("NamePrefix"), refused.getMessage());
        }
        assertDoesNotThrow(() -> template.resolve().parameter("NamePrefix", "lake-xn--s3").build());
        for (String address : List.of("ops", "ops@", "ops@example", "two words@example.com")) {
            assertThrows(TemplateException.class, () -> template.resolve().parameter("AlarmEmail", address).build(),
                    address);
        }
        for (String address : List.of("", "ops@example.com", "data.team+alarms@example.co.uk")) {
            assertDoesNotThrow(() -> template.resolve().parameter("AlarmEmail", address).build(), address);
        }
    }

    @Test
    void aDayCountTheFunctionsCouldNotReadIsRefusedBeforeAnythingIsCreated() {
        // The two reach the functions as environment variables, read as whole numbers at start-up.
        Template template = SamTransform.repositoryTemplate();
        Map<String, List<String>> refused = Map.of("MaxBucketSpan", List.of("30.5", "3e1", "0", "367", "030", "-1", ""),
                "RetentionDays", List.of("1.5", "-1", "00", "100000", "1e3", ""));
        Map<String, List<String>> accepted = Map.of("MaxBucketSpan", List.of("1", "9", "30", "199", "366"),
                "RetentionDays", List.of("0", "7", "365", "99999"));
        refused.forEach((name, values) -> values.forEach(value -> {
            TemplateException e = assertThrows(TemplateException.class,
                    () -> template.resolve().parameter(name, value).build(), name + "=" + value);
            assertTrue(e.getMessage().contains(name), e.getMessage());
        }));
        accepted.forEach((name, values) -> values.forEach(value -> {
            ResolvedTemplate stack = template.resolve().parameter(name, value).build();
            Map<String, String> variables = new HashMap<>();
            stack.properties("IngesterFunction").path("Environment").path("Variables").properties()
                    .forEach(e -> variables.put(e.getKey(), e.getValue().asText()));
            Environment env = Environment.of(variables);
            assertDoesNotThrow(() -> env.positive(EnvironmentVariable.MAX_BUCKET_SPAN, 30), name + "=" + value);
            assertDoesNotThrow(() -> env.positiveOrOff(EnvironmentVariable.RETENTION_DAYS), name + "=" + value);
        }));
    }

    @Test
    void aPublicUrlTheQueryFunctionCouldNotReadIsRefusedAndOneItReadsBecomesItsLinksBase() {
        // DATALAKE_HTTP_URL stops the query function's cold start unless Environment.baseUrl reads it.
        Template template = SamTransform.repositoryTemplate();
        for (String url : List.of("datalake.example.com", "ftp://datalake.example.com", "https://",
                "https://datalake.example.com/lake?stage=prod", "https://datalake.example.com/#top",
                "https://data lake.example.com", "https://datalake.example.com/a b", "https://host.123",
                "https://-lake.example.com", "/lake")) {
            TemplateException e = assertThrows(TemplateException.class,
                    () -> template.resolve().parameter("ApiPublicUrl", url).build(), url);
            assertTrue(e.getMessage().contains("ApiPublicUrl"), e.getMessage());
            assertThrows(RuntimeException.class, () -> baseUrlOf(url),
                    "the function refuses what the template does: " + url);
        }
        for (String url : List.of("https://datalake.example.com", "https://datalake.example.com/lake/",
                "HTTP://10.0.0.7:8080/v0-proxy", "https://api.example.co.uk/datalake/prod", "http://localhost:8080",
                "https://datalake.example.com./a%20b/~x")) {
            ResolvedTemplate stack = template.resolve().parameter("ApiPublicUrl", url).build();
            JsonNode variables = stack.properties("QueryFunction").path("Environment").path("Variables");
            assertEquals(url, variables.path("DATALAKE_HTTP_URL").asText(), url);
            assertDoesNotThrow(() -> baseUrlOf(url), url);
        }
        // one past 160 characters, which the function would read, would not fit the version's description
        String long161 = "https://datalake.example.com/" + "x".repeat(132);
        assertEquals(161, long161.length());
        assertThrows(TemplateException.class, () -> template.resolve().parameter("ApiPublicUrl", long161).build());
        assertDoesNotThrow(() -> template.resolve().parameter("ApiPublicUrl", long161.substring(0, 160)).build());
        // and without one, no variable: links start with the request's Host and stage
        assertTrue(template.resolve().build().properties("QueryFunction").path("Environment").path("Variables")
                .path("DATALAKE_HTTP_URL").isMissingNode());
    }

    private static String baseUrlOf(String url) {
        return Environment.of(Map.of(EnvironmentVariable.HTTP_URL.key(), url)).baseUrl(EnvironmentVariable.HTTP_URL);
    }

    @Test
    void aCountWithAFractionOrAnExponentIsRefusedBeforeAnythingIsCreated() {
        // Whole numbers to what reads them (SQS's redrive, Lambda's event source, S3's lifecycle, Application
        // Auto Scaling, the ingester's environment), which would refuse 5.5 or 1e1 late, after the tables.
        Template template = SamTransform.repositoryTemplate();
        Map<String, int[]> ranges = Map.of("StorageNoncurrentVersionDays", new int[] {0, 99999},
                "IngestBatchSize", new int[] {1, 10000}, "IngestMaxReceiveCount", new int[] {1, 1000},
                "IngestMaxConcurrency", new int[] {2, 1000},
                "TableMinWriteCapacity", new int[] {1, 1000}, "TableMaxWriteCapacity", new int[] {1000, 40000},
                "TableMinReadCapacity", new int[] {1, 1000}, "TableMaxReadCapacity", new int[] {1000, 40000});
        ranges.forEach((name, range) -> {
            int min = range[0];
            int max = range[1];
            for (String value : List.of(min + ".5", "1e1", "0" + min, Integer.toString(min - 1),
                    Integer.toString(max + 1), "")) {
                TemplateException e = assertThrows(TemplateException.class,
                        () -> template.resolve().parameter(name, value).build(), name + "=" + value);
                assertTrue(e.getMessage().contains(name), e.getMessage());
            }
            for (int value : new int[] {min, (min + max) / 2 + 3, max}) {
                assertDoesNotThrow(() -> template.resolve().parameter(name, Integer.toString(value)).build(),
                        name + "=" + value);
            }
        });
        // and what is left a Number lists its values or takes a fraction (a target utilisation percentage)
        List<String> numbers = new ArrayList<>();
        template.parameters().properties().forEach(p -> {
            if (p.getValue().path("Type").asText().equals("Number")) {
                numbers.add(p.getKey());
            }
        });
        assertEquals(List.of("IngestBatchingWindowSeconds", "LogRetentionDays", "TableTargetUtilization"), numbers);
    }

    @Test
    void jwtWithoutAnIssuerOrAnAudienceIsRefusedBeforeAnythingIsCreated() {
        Template template = SamTransform.repositoryTemplate();
        TemplateException noIssuer = assertThrows(TemplateException.class, () -> template.resolve()
                .parameter("ApiAuthMode", "JWT").parameter("JwtAudience", "client").build());
        assertTrue(noIssuer.getMessage().contains("JwtIssuer"), noIssuer.getMessage());
        TemplateException noAudience = assertThrows(TemplateException.class, () -> template.resolve()
                .parameter("ApiAuthMode", "JWT").parameter("JwtIssuer", "https://issuer.example").build());
        assertTrue(noAudience.getMessage().contains("JwtAudience"), noAudience.getMessage());
        assertDoesNotThrow(() -> template.resolve().parameter("ApiAuthMode", "JWT")
                .parameter("JwtIssuer", "https://issuer.example").parameter("JwtAudience", "client").build());
        assertDoesNotThrow(() -> template.resolve().build(), "AWS_IAM needs neither");
    }

    @Test
    void anIngestBatchAboveTenWithoutABatchingWindowIsRefusedBeforeAnythingIsCreated() {
        // Lambda refuses the SQS event source mapping, after most of the stack is made
        Template template = SamTransform.repositoryTemplate();
        TemplateException refused = assertThrows(TemplateException.class, () -> template.resolve()
                .parameter("IngestBatchSize", "11").parameter("IngestBatchingWindowSeconds", "0").build());
        assertTrue(refused.getMessage().contains("IngestBatchingWindowSeconds"), refused.getMessage());
        for (String[] sizeAndWindow : new String[][] {{"10", "0"}, {"1", "0"}, {"11", "1"}, {"10000", "300"}}) {
            assertDoesNotThrow(() -> template.resolve().parameter("IngestBatchSize", sizeAndWindow[0])
                    .parameter("IngestBatchingWindowSeconds", sizeAndWindow[1]).build(), String.join(", ", sizeAndWindow));
        }
    }

    @Test
    void theIngestQueueHidesAMessageSixIngesterTimeoutsPlusTheBatchingWindow() {
        // Lambda's guidance for an SQS trigger (Lambda guide, "Creating and configuring an Amazon SQS event
        // source mapping"): at least six times the function's timeout, plus the batching window
        Template template = SamTransform.repositoryTemplate();
        ResolvedTemplate defaults = template.resolve().build();
        assertEquals(6 * ingesterTimeout(defaults) + 1, visibilityTimeout(defaults), "with the defaults (a 1 s window)");
        List<String> windows = new ArrayList<>();
        template.parameters().path("IngestBatchingWindowSeconds").path("AllowedValues").forEach(w -> windows.add(w.asText()));
        assertTrue(windows.contains("0") && windows.contains("300"), "Lambda's whole range, 0 to 300 s: " + windows);
        for (String window : windows) {
            ResolvedTemplate stack = template.resolve().parameter("IngestBatchingWindowSeconds", window).build();
            assertEquals(6 * ingesterTimeout(stack) + Integer.parseInt(window), visibilityTimeout(stack), "window " + window);
        }
    }

    private static int ingesterTimeout(ResolvedTemplate stack) {
        return Integer.parseInt(ResolvedTemplate.text(stack.properties("IngesterFunction").path("Timeout")));
    }

    private static int visibilityTimeout(ResolvedTemplate stack) {
        return Integer.parseInt(ResolvedTemplate.text(stack.properties("IngestQueue").path("VisibilityTimeout")));
    }

    @Test
    void aNamedResourceIsNotKeptWhenItsFirstCreateRollsBack() {
        // A resource kept on rollback (DeletionPolicy Retain) under a fixed name makes the retry of a
        // failed first create fail with "already exists"; RetainExceptOnCreate keeps it only once created.
        List<String> problems = new ArrayList<>();
        for (Template.Resource resource : SamTransform.repositoryTemplate().resources().values()) {
            Limit limit = LIMITS.get(resource.type());
            boolean named = limit != null && resource.properties().has(limit.property());
            if (named && resource.deletionPolicy().orElse("Delete").equals("Retain")) {
                problems.add(resource.logicalId() + " (" + limit.property() + ") has DeletionPolicy Retain");
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void theOutputsGiveWhatAUserNeedsNext() {
        ResolvedTemplate stack = SamTransform.repositoryTemplate().resolve().build();
        Map<String, String> outputs = stack.outputs();
        for (String name : List.of("ApiUrl", "ApiId", "StorageUrl", "StorageBucketName", "IngestQueueUrl",
                "IngestDeadLetterQueueUrl", "UploadTopicArn", "ReportTopicArn", "AlarmTopicArn", "RecordsTableName",
                "LatestTableName", "BackfillFunctionArn", "BackfillJobRoleArn", "OperationsBucketName",
                "IndexOperatorPolicyArn")) {
            assertTrue(outputs.containsKey(name), "output " + name + " among " + outputs.keySet());
        }
        assertEquals("https://" + outputs.get("ApiId") + ".execute-api.us-east-1.amazonaws.com", outputs.get("ApiUrl"));
        assertEquals(stack.ref("AlarmTopic"), outputs.get("AlarmTopicArn"));
    }

    /** The longest string of one repeated letter or digit that a pattern accepts (up to 100). */
    static String longestMatch(String allowedPattern) {
        Pattern pattern = Pattern.compile(allowedPattern);
        String longest = null;
        for (int n = 1; n <= 100; n++) {
            String candidate = "a".repeat(n);
            if (pattern.matcher(candidate).matches()) {
                longest = candidate;
            }
        }
        assertTrue(longest != null, "the pattern " + allowedPattern + " accepts a run of letters");
        return longest;
    }
}
