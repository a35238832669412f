package datalake.deploy;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import datalake.emulators.template.Repository;
import datalake.emulators.template.SamTransform;
import datalake.emulators.template.Template;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * samconfig.toml, as `sam build` and `sam deploy` (scripts/deploy.sh) read it, against what the
 * transformed template needs: the capabilities its IAM resources require, and the fast build.
 */
class SamConfigTest {
    /** Name properties of IAM resources: a fixed one makes CloudFormation ask for CAPABILITY_NAMED_IAM. */
    private static final Map<String, String> IAM_NAMES = Map.of("AWS::IAM::Role", "RoleName",
            "AWS::IAM::ManagedPolicy", "ManagedPolicyName", "AWS::IAM::User", "UserName", "AWS::IAM::Group", "GroupName",
            "AWS::IAM::InstanceProfile", "InstanceProfileName");
    private static JsonNode config;
    private static List<String> environments;

    @BeforeAll
    static void read() throws IOException {
        config = new TomlMapper().readTree(Repository.root().resolve("samconfig.toml").toFile());
        environments = new ArrayList<>();
        config.fieldNames().forEachRemaining(name -> {
            if (config.get(name).isObject()) {
                environments.add(name);
            }
        });
        assertTrue(environments.containsAll(List.of("default", "prod")), "samconfig.toml's environments: " + environments);
    }

    @Test
    void everyEnvironmentGrantsTheCapabilitiesTheTemplatesIamResourcesNeed() {
        Template template = SamTransform.repositoryTemplate();
        List<String> named = new ArrayList<>();
        boolean iam = false;
        for (Template.Resource resource : template.resources().values()) {
            String nameProperty = IAM_NAMES.get(resource.type());
            if (nameProperty != null) {
                iam = true;
                if (resource.properties().has(nameProperty)) {
                    named.add(resource.logicalId() + " (" + nameProperty + ")");
                }
            }
        }
        assertTrue(iam, "the template creates IAM resources");
        for (String environment : environments) {
            Set<String> capabilities = Set.of(config.path(environment).path("deploy").path("parameters")
                    .path("capabilities").asText().split("\\s+"));
            assertTrue(capabilities.contains("CAPABILITY_IAM") || capabilities.contains("CAPABILITY_NAMED_IAM"),
                    environment + " grants CAPABILITY_IAM: " + capabilities);
            if (!named.isEmpty()) {
                assertTrue(capabilities.contains("CAPABILITY_NAMED_IAM"), environment + "'s change set would be refused:"
                        + " " + named + " need CAPABILITY_NAMED_IAM, and it grants " + capabilities);
            }
        }
    }

    @Test
    void aDeployWithNothingToChangeSucceedsSoThatTheStackPolicyIsSetAfterIt() {
        // sam deploy exits 1 on an empty change set by default, which stops scripts/deploy.sh (set -e)
        // before stack_policy.py: a re-run, to set a policy a first run could not, would never reach it
        for (String environment : environments) {
            JsonNode deploy = config.path(environment).path("deploy").path("parameters");
            assertFalse(deploy.path("fail_on_empty_changeset").asBoolean(true),
                    environment + " sets fail_on_empty_changeset = false");
        }
    }

    @Test
    void everyEnvironmentBuildsInTheCheckoutNotInACopyOfIt() {
        for (String environment : environments) {
            JsonNode build = config.path(environment).path("build").path("parameters");
            assertTrue(build.path("build_in_source").asBoolean(false), environment + " builds with build_in_source = true"
                    + " (otherwise sam build copies the whole checkout, virtualenvs included, for each function)");
            assertFalse(build.path("use_container").asBoolean(false), environment + " needs no Docker");
        }
    }

    @Test
    void theDeployParametersAreParametersOfTheTemplate() {
        Template template = SamTransform.repositoryTemplate();
        for (String environment : environments) {
            String overrides = config.path(environment).path("deploy").path("parameters").path("parameter_overrides").asText("");
            for (String assignment : overrides.trim().split("\\s+")) {
                if (assignment.isEmpty()) {
                    continue;
                }
                String name = assignment.substring(0, assignment.indexOf('='));
                assertTrue(template.parameters().has(name), environment + " overrides " + name + ", a parameter of the template");
            }
            // and the template takes their values (patterns, ranges, rules), as CloudFormation would
            var resolve = template.resolve();
            for (String assignment : overrides.trim().split("\\s+")) {
                int eq = assignment.indexOf('=');
                resolve.parameter(assignment.substring(0, eq), assignment.substring(eq + 1));
            }
            assertDoesNotThrow(resolve::build, environment + "'s parameter_overrides");
        }
    }
}
