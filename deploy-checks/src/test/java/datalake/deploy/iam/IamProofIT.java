package datalake.deploy.iam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import datalake.emulators.calls.CallRecorder;
import datalake.emulators.calls.RecordedCall;
import datalake.emulators.calls.StackRecord;
import datalake.emulators.template.Repository;
import datalake.emulators.template.SamTransform;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * IAM proven by the tests: every AWS call the functions, Lambda's SQS poller and the index tools made in
 * the integration tests of the modules before this one (recorded by the emulators' CallRecorder into
 * their {@code target/aws-calls}) is allowed by its principal's policies in template.yaml ({@link IamProof}).
 * The grants no test exercises, and the calls tests make on purpose outside the template's grants, are in
 * one list, {@code src/test/resources/iam-proof.yaml}, each with its reason; this test keeps the list
 * exact, so it cannot rot. Runs in the failsafe phase, after the other modules' integration tests (this
 * module depends on them).
 */
class IamProofIT {
    /** Who must have made calls: an empty recording proves nothing. */
    private static final Set<String> PRINCIPALS = Set.of("IngesterFunction (function)", "IngesterFunction (event source)",
            "BackfillFunction (function)", "QueryFunction (function)", "IndexOperatorPolicy (operator)");
    private static IamProof proof;
    private static CallRecorder.Recording recording;
    private static JsonNode list;

    @BeforeAll
    static void evaluate() throws IOException {
        recording = IamProof.read(Repository.root());
        proof = new IamProof(recording);
        try (InputStream in = IamProofIT.class.getResourceAsStream("/iam-proof.yaml")) {
            list = new ObjectMapper(new YAMLFactory()).readTree(in);
        }
        String summary = proof.summary();
        System.out.println(summary);
        Path target = Path.of("target");
        Files.createDirectories(target);
        Files.writeString(target.resolve("iam-proof.txt"), summary);
    }

    @Test
    void everyPrincipalMadeCalls() {
        Set<String> recorded = new TreeSet<>();
        for (RecordedCall call : recording.calls()) {
            recorded.add(call.principal() + " (" + call.acting() + ")");
        }
        Set<String> missing = new TreeSet<>(PRINCIPALS);
        missing.removeAll(recorded);
        assertEquals(Set.of(), missing, "principals that recorded no call (did the integration tests of emulators,"
                + " lambda-ingester, lambda-query, index-tools and local-runner run in this build?)");
    }

    @Test
    void everyCallIsAllowedButThoseTheTestsMakeOnPurpose() {
        List<String> denied = new ArrayList<>();
        for (IamProof.Evaluated e : proof.evaluated()) {
            if (!e.allowed() && deniedOnPurpose(e) == null) {
                denied.add(e.toString());
            }
        }
        assertEquals(List.of(), denied, "calls template.yaml does not allow: fix the template (or the code)");
    }

    @Test
    void everyCallMadeOnPurposeOutsideTheGrantsHappensAndIsDenied() {
        for (JsonNode entry : list.path("deniedOnPurpose")) {
            assertFalse(entry.path("reason").asText().isBlank(), entry + " says why");
            List<IamProof.Evaluated> matching = proof.evaluated().stream().filter(e -> matches(entry, e)).toList();
            assertFalse(matching.isEmpty(), "no test makes the call of " + entry + " any more: remove it from iam-proof.yaml");
            for (IamProof.Evaluated e : matching) {
                assertFalse(e.allowed(), e + " is allowed, but iam-proof.yaml lists it as denied on purpose");
            }
        }
    }

    @Test
    void everyGrantIsExercisedOrListedWithItsReason() {
        Set<String> listed = new LinkedHashSet<>();
        for (JsonNode entry : list.path("unexercised")) {
            assertFalse(entry.path("reason").asText().isBlank(), entry + " says why the grant is kept");
            assertTrue(listed.add(entry.path("grant").asText()), "listed once: " + entry.path("grant").asText());
        }
        Set<String> exercised = new TreeSet<>();
        proof.exercised().forEach(g -> exercised.add(g.toString()));
        Set<String> unexercised = new TreeSet<>();
        for (Grant grant : IamProof.grants(SamTransform.repositoryTemplate())) {
            if (!exercised.contains(grant.toString())) {
                unexercised.add(grant.toString());
            }
        }
        Set<String> notListed = new TreeSet<>(unexercised);
        notListed.removeAll(listed);
        Set<String> usedButListed = new TreeSet<>(listed);
        usedButListed.retainAll(exercised);
        Set<String> unknown = new TreeSet<>(listed);
        unknown.removeAll(unexercised);
        unknown.removeAll(exercised);
        assertEquals(Set.of(), notListed, "grants no test exercises: list them in iam-proof.yaml with the reason"
                + " they are kept, or remove them from template.yaml");
        assertEquals(Set.of(), usedButListed, "grants the tests now exercise: remove them from iam-proof.yaml");
        assertEquals(Set.of(), unknown, "iam-proof.yaml lists grants template.yaml does not hold");
    }

    /**
     * A stack built with ExistingBucketName (AdoptedBucketIT) is proven against the policies rendered for that
     * parameter: its principals' calls on the adopted bucket are allowed, and each would be denied by the
     * policies rendered without it (the stack's own bucket), so no grant reaches the bucket by accident.
     */
    @Test
    void anAdoptedBucketsCallsAreAllowedByThePoliciesRenderedForItAndNotOtherwise() {
        Map<String, StackRecord> stacks = recording.stacksById();
        Map<String, StackPolicies> withoutAdoption = new HashMap<>();
        Set<String> principals = new TreeSet<>();
        List<String> problems = new ArrayList<>();
        for (IamProof.Evaluated e : proof.evaluated()) {
            StackRecord stack = stacks.get(e.call().stack());
            String adopted = stack.parameters().getOrDefault("ExistingBucketName", "");
            String bucketArn = "arn:aws:s3:::" + adopted;
            if (adopted.isEmpty() || !(e.call().resource().equals(bucketArn) || e.call().resource().startsWith(bucketArn + "/"))) {
                continue;
            }
            principals.add(e.call().principal() + " (" + e.call().acting() + ")");
            if (!e.allowed()) {
                problems.add(e + ", under the policies rendered for ExistingBucketName=" + adopted);
            }
            StackPolicies own = withoutAdoption.computeIfAbsent(stack.id(), id -> {
                Map<String, String> parameters = new HashMap<>(stack.parameters());
                parameters.remove("ExistingBucketName");
                return new StackPolicies(IamProof.resolve(stack, parameters));
            });
            if (IamProof.decide(own, e.call(), e.action()).allowed()) {
                problems.add(e + " is allowed without ExistingBucketName too");
            }
        }
        assertTrue(principals.containsAll(Set.of("IndexOperatorPolicy (operator)", "IngesterFunction (function)")),
                "principals that called an adopted bucket (did AdoptedBucketIT run?): " + principals);
        assertEquals(List.of(), problems);
    }

    private static JsonNode deniedOnPurpose(IamProof.Evaluated e) {
        for (JsonNode entry : list.path("deniedOnPurpose")) {
            if (matches(entry, e)) {
                return entry;
            }
        }
        return null;
    }

    private static boolean matches(JsonNode entry, IamProof.Evaluated e) {
        return entry.path("principal").asText().equals(e.call().principal())
                && Statement.glob(entry.path("action").asText(), e.action(), true)
                && Statement.glob(entry.path("resource").asText(), e.call().resource(), false);
    }
}
