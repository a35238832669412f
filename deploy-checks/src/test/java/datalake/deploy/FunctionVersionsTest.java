package datalake.deploy;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import datalake.emulators.template.Repository;
import datalake.emulators.template.ResolvedTemplate;
import datalake.emulators.template.SamTransform;
import datalake.emulators.template.SamTransform.Deployment;
import datalake.emulators.template.Template;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A parameter changed on a live stack reaches the functions that read it. SQS, API Gateway and Batch
 * Operations call the {@code live} alias, which points at a published version, and a version keeps the
 * environment it was published with. CloudFormation publishes a new one when the version's logical id
 * changes (SAM derives it from the code and the environment's text, with its Refs unresolved) or its
 * Description does (a replacement). And Lambda publishes a new version only when the function's code or
 * configuration changed, so a replaced version whose function did not change would name the old one.
 */
class FunctionVersionsTest {
    /** A value each parameter can take on a live stack, with what the template's rules need beside it. */
    private static final Map<String, Map<String, String>> CHANGES = Map.ofEntries(
            entry("StageName", Map.of("StageName", "beta")),
            entry("NamePrefix", Map.of("NamePrefix", "lake2")),
            entry("RetentionDays", Map.of("RetentionDays", "365")),
            entry("ExistingBucketName", Map.of("ExistingBucketName", "team-data")),
            entry("StorageNoncurrentVersionDays", Map.of("StorageNoncurrentVersionDays", "7")),
            entry("ApiPublicUrl", Map.of("ApiPublicUrl", "https://datalake.example.com/lake")),
            entry("ApiAuthMode", Map.of("ApiAuthMode", "JWT", "JwtIssuer", "https://issuer.example.com",
                    "JwtAudience", "client")),
            entry("JwtIssuer", Map.of("JwtIssuer", "https://issuer.example.com")),
            entry("JwtAudience", Map.of("JwtAudience", "client")),
            entry("IngestBatchSize", Map.of("IngestBatchSize", "100")),
            entry("IngestBatchingWindowSeconds", Map.of("IngestBatchingWindowSeconds", "5")),
            entry("IngestMaxReceiveCount", Map.of("IngestMaxReceiveCount", "3")),
            entry("IngestMaxConcurrency", Map.of("IngestMaxConcurrency", "20")),
            entry("MaxBucketSpan", Map.of("MaxBucketSpan", "7")),
            entry("LogRetentionDays", Map.of("LogRetentionDays", "90")),
            entry("AlarmEmail", Map.of("AlarmEmail", "ops@example.com")),
            entry("TableBillingMode", Map.of("TableBillingMode", "PROVISIONED")),
            entry("TableMinWriteCapacity", Map.of("TableMinWriteCapacity", "10")),
            entry("TableMaxWriteCapacity", Map.of("TableMaxWriteCapacity", "2000")),
            entry("TableMinReadCapacity", Map.of("TableMinReadCapacity", "10")),
            entry("TableMaxReadCapacity", Map.of("TableMaxReadCapacity", "2000")),
            entry("TableTargetUtilization", Map.of("TableTargetUtilization", "50")),
            entry("TableContributorInsights", Map.of("TableContributorInsights", "Enabled")),
            entry("UploadNotifications", Map.of("UploadNotifications", "Queue")));

    @Test
    void everyParameterOfTheTemplateHasAChangeHere() {
        assertEquals(new TreeSet<>(names(SamTransform.repositoryTemplate().parameters())), new TreeSet<>(CHANGES.keySet()),
                "a parameter added to template.yaml needs a value here, so that its changes are checked");
    }

    @Test
    void aChangedParameterThatAFunctionReadsPublishesItsVersionAndNoOtherChangeDoes() {
        Template defaults = SamTransform.repositoryTemplate();
        ResolvedTemplate before = defaults.resolve().build();
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, Map<String, String>> change : new TreeMap<>(CHANGES).entrySet()) {
            Map<String, String> parameters = change.getValue();
            // given the stack updated with the parameter's new value (transformed again: SAM resolves some Refs)
            Deployment deployment = new Deployment(Deployment.DEFAULT_STACK_NAME, "123456789012", "us-east-1", parameters);
            Template changed = SamTransform.transform(Repository.template(), deployment);
            ResolvedTemplate after = changed.resolve().parameters(parameters).build();
            for (Template.Resource function : defaults.ofType("AWS::Lambda::Function")) {
                String id = function.logicalId();
                if (parameters.containsKey("NamePrefix")) {
                    continue; // renames every function (a replacement), which the stack policy refuses anyway
                }
                // when CloudFormation compares the function and its version before and after
                boolean configured = !environment(before, id).equals(environment(after, id));
                Version old = version(defaults, before, id);
                Version now = version(changed, after, id);
                boolean published = !old.logicalId().equals(now.logicalId()) || !old.description().equals(now.description());
                boolean replaced = old.logicalId().equals(now.logicalId()) && !old.description().equals(now.description());

                // then the alias gets a new version exactly when the function's environment changed
                if (configured && !published) {
                    problems.add(change.getKey() + " changes " + id + "'s environment but not its version: the live alias"
                            + " keeps the old settings (" + old.logicalId() + ", \"" + old.description() + "\")");
                }
                if (replaced && !configured) {
                    problems.add(change.getKey() + " replaces " + id + "'s version (\"" + old.description() + "\" to \""
                            + now.description() + "\") without changing the function: Lambda would publish nothing new");
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    /** A function's published version as CloudFormation sees it: its logical id and resolved description. */
    private record Version(String logicalId, String description) {
    }

    private static Version version(Template template, ResolvedTemplate stack, String function) {
        List<Version> versions = new ArrayList<>();
        for (Template.Resource r : template.ofType("AWS::Lambda::Version")) {
            if (function.equals(r.properties().path("FunctionName").path("Ref").asText())) {
                versions.add(new Version(r.logicalId(), stack.properties(r.logicalId()).path("Description").asText()));
            }
        }
        assertEquals(1, versions.size(), function + "'s versions: " + versions);
        return versions.get(0);
    }

    private static JsonNode environment(ResolvedTemplate stack, String function) {
        return stack.properties(function).path("Environment");
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
