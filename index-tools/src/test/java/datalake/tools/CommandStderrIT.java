package datalake.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * target/classes and the runtime classpath), print nothing of SLF4J (without a binding, SLF4J opened
 * every run with three lines on stderr) and, when nothing answers, one sentence naming the endpoint
 * instead of a stack trace.
 */
class CommandStderrIT {
    @ParameterizedTest
    @ValueSource(strings = {"datalake.tools.BackfillCommand", "datalake.tools.ReconcileCommand"})
    void nothingAnswersIsOneSentenceWithoutSlf4jOrAStackTrace(String main) throws Exception {
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
                "DATALAKE_DYNAMODB_TABLE", "nothing-listens-here", "DATALAKE_MAX_BUCKET_SPAN", "30",
                "DATALAKE_RETENTION_DAYS", "0"));

        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertTrue(process.waitFor(120, TimeUnit.SECONDS));
        assertTrue(output.contains("Connection refused"), "it reached the SDK: " + output);
        assertFalse(output.contains("SLF4J"), output);
        assertEquals(1, process.exitValue(), output);
        assertTrue(output.contains(": AWS did not answer (") && output.contains("127.0.0.1:" + port), output);
        assertFalse(output.contains("\tat "), "no stack trace: " + output);
    }
}
