package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** scripts/invoke.sh's arguments read as {@code sam local invoke} reads them, and the local stack's variables. */
class InvokeOptionsTest {
    @Test
    void bothOfSamsParameterFormsAndTheLocalVariables() {
        InvokeOptions options = InvokeOptions.parse(new String[] {"QueryFunction", "-e", "events/query/archive.json",
                "--parameter-overrides", "ParameterKey=ApiAuthMode,ParameterValue=AWS_IAM UploadNotifications=Queue",
                "--parameter-overrides", "IngestBatchSize=5"},
                Map.of("DATALAKE_LOCAL_PREFIX", "mine", "DATALAKE_LOCAL_MOTO_PORT", "15000"));

        assertEquals("QueryFunction", options.function());
        assertEquals(Optional.of(Path.of("events/query/archive.json")), options.event());
        assertEquals(Map.of("NamePrefix", "mine", "ApiAuthMode", "AWS_IAM", "UploadNotifications", "Queue",
                "IngestBatchSize", "5"), options.parameters());
        assertEquals(URI.create("http://127.0.0.1:15000"), options.moto());
        assertEquals(URI.create("http://127.0.0.1:8000"), options.dynamoDb());
    }

    @Test
    void aDashIsStandardInputAndNoEventIsTheEmptyOne() {
        InvokeOptions stdin = InvokeOptions.parse(new String[] {"IngesterFunction", "--event", "-"}, Map.of());
        InvokeOptions none = InvokeOptions.parse(new String[] {"IngesterFunction"}, Map.of());

        assertEquals(Optional.empty(), stdin.event());
        assertEquals(false, stdin.noEvent());
        assertTrue(none.noEvent());
    }

    @Test
    void badArgumentsAreOneSentenceEach() {
        assertEquals("name the function to invoke, e.g. QueryFunction.",
                assertThrows(IllegalArgumentException.class, () -> InvokeOptions.parse(new String[] {"-e", "x.json"},
                        Map.of())).getMessage());
        assertEquals("--parameter-overrides takes Name=Value pairs, not \"NamePrefix\".",
                assertThrows(IllegalArgumentException.class, () -> InvokeOptions.parse(new String[] {"QueryFunction",
                        "--parameter-overrides", "NamePrefix"}, Map.of())).getMessage());
        assertEquals("DATALAKE_LOCAL_DYNAMODB_PORT must be a port number, not \"eight\".",
                assertThrows(IllegalArgumentException.class, () -> InvokeOptions.parse(new String[] {"QueryFunction"},
                        Map.of("DATALAKE_LOCAL_DYNAMODB_PORT", "eight"))).getMessage());
        assertEquals("unknown argument QueryFunction.",
                assertThrows(IllegalArgumentException.class, () -> InvokeOptions.parse(new String[] {"IngesterFunction",
                        "QueryFunction"}, Map.of())).getMessage());
    }
}
