package datalake.tools;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * scripts/backfill.sh's and scripts/reconcile.sh's mains, run as the scripts run them (their own JVM on
 * target/classes and the runtime classpath), print nothing of SLF4J: without a binding, SLF4J opened
 * every run with three lines on stderr.
 */
class CommandStderrIT {
    @ParameterizedTest
    @ValueSource(strings = {"datalake.tools.BackfillCommand", "datalake.tools.ReconcileCommand"})
    void noSlf4jLinesOnStderr(String main) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path module = Path.of("").toAbsolutePath();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", module.resolve("target/classes") + ":" + Files.readString(module.resolve("target/classpath.txt")).strip(),
                main, "s3://nothing-listens-here"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(Map.of("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:" + port,
                "AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:" + port, "AWS_REGION", "us-east-1",
                "AWS_ACCESS_KEY_ID", "datalakelocal", "AWS_SECRET_ACCESS_KEY", "datalakelocal",
                "DATALAKE_DYNAMODB_TABLE", "nothing-listens-here"));

        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertTrue(process.waitFor(120, TimeUnit.SECONDS));
        assertTrue(output.contains("Connection refused"), "it reached the SDK: " + output);
        assertFalse(output.contains("SLF4J"), output);
    }
}
