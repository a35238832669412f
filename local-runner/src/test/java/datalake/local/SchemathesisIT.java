package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Schemathesis (pinned in scripts/requirements-dev.txt) against the local API serving the demo data:
 * docs/openapi.yaml's every operation, with positive and negative data ({@code --mode all}), seeded and
 * bounded (30 examples an operation, about a minute). It fails on any server error and on any answer
 * the document does not allow (status code, content type, headers, body schema), and on a request the
 * document forbids that the API answers as if it were valid. Not checked: that every request the
 * document allows succeeds ({@code positive_data_acceptance}): what OpenAPI 3.0 cannot say (start needs
 * end, work_id or a range, a cursor is the API's own) is a documented 400. A request may take 120 s:
 * {@code latest} of an unknown feed with a lookback near 3,660 days reads as many day buckets, seconds on
 * dynalite, more on a busy machine.
 */
class SchemathesisIT {
    private static final List<String> CHECKS = List.of("not_a_server_error", "status_code_conformance",
            "content_type_conformance", "response_headers_conformance", "response_schema_conformance",
            "negative_data_rejection");

    @Test
    void theLocalApiConformsToItsDocumentForPositiveAndNegativeData() throws Exception {
        Path spec = Path.of("..", "docs", "openapi.yaml").toAbsolutePath().normalize();
        Path work = Files.createDirectories(Path.of("target", "schemathesis")).toAbsolutePath();
        try (RunnerHarness runner = RunnerHarness.start("schemathesis")) {
            List<String> command = List.of(PythonTools.executable("schemathesis").toString(), "run", spec.toString(),
                    "--url", runner.api, "--mode", "all", "--seed", "20260101", "--max-examples", "30",
                    "--workers", "1", "--request-timeout", "120", "--checks", String.join(",", CHECKS),
                    "--report", "junit", "--report-dir", work.toString());
            Path output = work.resolve("output.txt");
            // Its own folder: Hypothesis keeps its example database in the working directory.
            Process process = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new AssertionError("schemathesis did not end in 10 minutes: " + Files.readString(output));
            }

            assertEquals(0, process.exitValue(), () -> "schemathesis found a server error or a disagreement with"
                    + " docs/openapi.yaml:\n" + read(output));
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return "(no output: " + e + ")";
        }
    }
}
