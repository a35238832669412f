package datalake.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import datalake.emulators.template.ResolvedTemplate;
import datalake.emulators.template.SamTransform;
import datalake.emulators.template.Template;
import org.junit.jupiter.api.Test;

/**
 * The storage bucket is versioned, so an overwritten or deleted file keeps its previous version: S3 expires
 * those after {@code StorageNoncurrentVersionDays} (30 by default; 0 keeps them), so storage does not grow
 * forever. On the template after the SAM transform, resolved as a stack would be (moto never expires).
 */
class StorageVersionsTest {
    private static final Template TEMPLATE = SamTransform.repositoryTemplate();

    private static JsonNode rule(ResolvedTemplate stack) {
        JsonNode bucket = stack.properties("StorageBucket");
        assertEquals("Enabled", bucket.path("VersioningConfiguration").path("Status").asText());
        JsonNode rules = bucket.path("LifecycleConfiguration").path("Rules");
        assertEquals(1, rules.size(), rules.toString());
        JsonNode rule = rules.get(0);
        assertEquals("Enabled", rule.path("Status").asText());
        assertFalse(rule.has("ExpirationInDays") || rule.has("ExpirationDate") || rule.has("Prefix")
                || rule.has("Filter"), "current files never expire: " + rule);
        return rule;
    }

    @Test
    void previousVersionsExpireAfterThirtyDaysByDefault() {
        JsonNode rule = rule(TEMPLATE.resolve().build());

        assertEquals("30", ResolvedTemplate.text(rule.path("NoncurrentVersionExpiration").path("NoncurrentDays")));
        assertTrue(rule.path("ExpiredObjectDeleteMarker").asBoolean(), "a deleted file's marker goes too: " + rule);
    }

    @Test
    void previousVersionsExpireAfterTheDaysGivenOrNeverWithZero() {
        JsonNode week = rule(TEMPLATE.resolve().parameter("StorageNoncurrentVersionDays", "7").build());
        assertEquals("7", ResolvedTemplate.text(week.path("NoncurrentVersionExpiration").path("NoncurrentDays")));

        JsonNode never = rule(TEMPLATE.resolve().parameter("StorageNoncurrentVersionDays", "0").build());
        assertFalse(never.has("NoncurrentVersionExpiration"), never.toString());
    }
}
