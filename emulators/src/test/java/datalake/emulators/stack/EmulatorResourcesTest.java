package datalake.emulators.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.emulators.template.TemplateException;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** A PROVISIONED table's capacities come from the template, never from a local default. */
class EmulatorResourcesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aProvisionedTableWithoutThroughputIsRefusedAsCloudFormationRefusesIt() throws IOException {
        TemplateException missing = assertThrows(TemplateException.class,
                () -> EmulatorResources.throughput("the table Records", JSON.missingNode()));
        assertTrue(missing.getMessage().startsWith("the table Records is PROVISIONED but has no ProvisionedThroughput"),
                missing.getMessage());
        assertThrows(TemplateException.class,
                () -> EmulatorResources.throughput("the table Records", JSON.readTree("{\"ReadCapacityUnits\": 5}")));
        var given = EmulatorResources.throughput("the table Records",
                JSON.readTree("{\"ReadCapacityUnits\": \"7\", \"WriteCapacityUnits\": 3}"));
        assertEquals(7L, given.readCapacityUnits());
        assertEquals(3L, given.writeCapacityUnits());
    }
}
