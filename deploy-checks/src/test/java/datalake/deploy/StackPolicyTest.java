package datalake.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.emulators.template.Repository;
import datalake.emulators.template.ResolvedTemplate;
import datalake.emulators.template.SamTransform;
import datalake.emulators.template.Template;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * What a changed NamePrefix, a deletion and a re-installation do to the data (README, "Changing parameters,
 * deleting, re-installing"). A changed prefix renames, hence replaces, every named resource; the stack
 * policy scripts/deploy.sh sets (stack-policy.json) refuses replacing any resource that holds data, so
 * CloudFormation refuses the change instead of continuing on new, empty tables and bucket. Those resources
 * are kept when the stack is deleted or one is replaced. No emulator has CloudFormation's stack policies,
 * so this is where they are checked.
 */
class StackPolicyTest {
    private static final Template TEMPLATE = SamTransform.repositoryTemplate();
    /** What holds data: what a deletion or a replacement must not take with it. */
    private static final Set<String> DATA_TYPES = Set.of("AWS::DynamoDB::Table", "AWS::S3::Bucket");

    @Test
    void everyResourceWithDataThatAChangedPrefixWouldReplaceIsProtectedFromReplacement() throws IOException {
        // Given two renderings of the stack that differ by NamePrefix only
        ResolvedTemplate before = TEMPLATE.resolve().build();
        ResolvedTemplate after = TEMPLATE.resolve().parameter("NamePrefix", "renamed").build();

        // the resources with data whose name changes (a new name replaces a table or a bucket)
        Set<String> replaced = new TreeSet<>();
        for (Template.Resource r : TEMPLATE.resources().values()) {
            if (DATA_TYPES.contains(r.type()) && before.exists(r.logicalId()) && retained(r)
                    && !before.ref(r.logicalId()).equals(after.ref(r.logicalId()))) {
                replaced.add(r.logicalId());
            }
        }
        assertEquals(Set.of("RecordsTable", "LatestTable", "StorageBucket"), replaced);

        // are exactly those the stack policy denies replacing, and every other update stays allowed
        JsonNode statements = new ObjectMapper().readTree(Files.readString(Repository.root().resolve("stack-policy.json")))
                .path("Statement");
        Set<String> denied = new TreeSet<>();
        boolean allowsTheRest = false;
        for (JsonNode s : statements) {
            assertEquals("*", s.path("Principal").asText(), s.toString());
            if (s.path("Effect").asText().equals("Deny")) {
                assertEquals("Update:Replace", s.path("Action").asText(), s.toString());
                s.path("Resource").forEach(id -> denied.add(id.asText().replaceFirst("^LogicalResourceId/", "")));
            } else {
                allowsTheRest |= s.path("Action").asText().equals("Update:*") && s.path("Resource").asText().equals("*");
            }
        }
        assertEquals(replaced, denied);
        assertTrue(allowsTheRest, "a stack policy denies every update it does not allow: " + statements);
    }

    @Test
    void theTablesAndTheStorageBucketAreKeptWhenTheStackIsDeletedOrTheyAreReplaced() {
        // The files are the data and the index is the time it takes to rebuild it; the operations bucket
        // (manifests, reports) goes with the stack, after scripts/uninstall.sh has emptied it
        Set<String> kept = new TreeSet<>();
        for (Template.Resource r : TEMPLATE.resources().values()) {
            if (DATA_TYPES.contains(r.type())) {
                if (retained(r)) {
                    kept.add(r.logicalId());
                    assertEquals("Retain", r.json().path("UpdateReplacePolicy").asText(), r.logicalId());
                }
            }
        }
        assertEquals(Set.of("RecordsTable", "LatestTable", "StorageBucket"), kept);
        // each is still deleted when the first create rolls back, so that a retry does not meet it
        for (String id : kept) {
            assertEquals("RetainExceptOnCreate", TEMPLATE.resource(id).deletionPolicy().orElseThrow(), id);
        }
    }

    @Test
    void aKeptBucketKeepsItsPolicy() {
        // A kept bucket outlives the stack, or leaves it when ExistingBucketName takes over: its policy (TLS
        // only) must not be deleted from under it
        for (Template.Resource policy : TEMPLATE.ofType("AWS::S3::BucketPolicy")) {
            Template.Resource bucket = TEMPLATE.resource(policy.properties().path("Bucket").path("Ref").asText());
            if (retained(bucket)) {
                assertEquals(bucket.deletionPolicy(), policy.deletionPolicy(), policy.logicalId());
                assertEquals(bucket.updateReplacePolicy(), policy.updateReplacePolicy(), policy.logicalId());
            }
        }
        assertTrue(retained(TEMPLATE.resource("StorageBucketPolicy")));
    }

    private static boolean retained(Template.Resource r) {
        return r.deletionPolicy().map(p -> p.startsWith("Retain")).orElse(false);
    }
}
