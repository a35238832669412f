package datalake.emulators;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DatalakeStackTest {
    @Test
    void uniquePrefixesAreValidNamePrefixesAndDistinct() {
        for (String hint : new String[] {"IngesterIT case #1", "a-very-long-hint-that-goes-on-and-on-and-on", "---", ""}) {
            String prefix = DatalakeStack.uniquePrefix(hint);
            // template.yaml's AllowedPattern for NamePrefix
            assertTrue(prefix.matches("(?!xn--|sthree-|amzn-s3-demo-)[a-z0-9][a-z0-9-]{2,23}"), prefix);
            assertNotEquals(prefix, DatalakeStack.uniquePrefix(hint));
        }
        assertTrue(DatalakeStack.uniquePrefix("IngesterIT").startsWith("ingesterit-"));
    }
}
