package datalake.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * scripts/backfill.sh's and scripts/reconcile.sh's mains, run as the scripts run them (their own JVM on
 * target/classes and the runtime classpath), print nothing of SLF4J (without a binding, SLF4J opened
 * every run with three lines on stderr) and, when nothing answers, one sentence naming the endpoint
 * instead of a stack trace; a table that is not there, or not given, is one sentence naming it, before
 * anything is done.
 */
@ExtendWith(EmulatorsExtension.class)
class CommandStderrIT {
    private static List<String> command(String main, String... args) throws Exception {
        Path module = Path.of("").toAbsolutePath();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", module.resolve("target/classes") + ":" + Files.readString(module.resolve("target/classpath.txt")).strip(),
                main));
        command.addAll(List.of(args));
        return command;
    }

    /** What a command run as its script runs it did: its exit status, standard output and standard error. */
    private record Ran(int status, String out, List<String> err) {
    }

    /** The stack's variables as an operator holding IndexOperatorPolicy sets them, with a file to index. */
    private static Map<String, String> operatorEnvironment(ToolsHarness h) {
        h.put("logs/a.log", ToolsHarness.metadata("host-a", "a", ToolsHarness.START));
        Map<String, String> env = new HashMap<>(h.stack.backfill().environment());
        env.putAll(h.operator.endpointEnvironment());
        env.putIfAbsent("DATALAKE_RETENTION_DAYS", "0");
        env.remove("JAVA_TOOL_OPTIONS"); // the function's, which a JVM announces on stderr
        return env;
    }

    private static Ran run(String main, Map<String, String> env, String target) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command(main, target));
        builder.environment().putAll(env);
        Path err = Files.createTempFile("command-stderr", ".err");
        try {
            Process process = builder.redirectError(err.toFile()).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(120, TimeUnit.SECONDS));
            return new Ran(process.exitValue(), output, Files.readAllLines(err));
        } finally {
            Files.deleteIfExists(err);
        }
    }

    @ParameterizedTest
    @CsvSource({"datalake.tools.BackfillCommand, DATALAKE_LATEST_TABLE", "datalake.tools.BackfillCommand, DATALAKE_DYNAMODB_TABLE",
            "datalake.tools.ReconcileCommand, DATALAKE_LATEST_TABLE"})
    void aTableThatIsNotThereIsOneSentenceNamingItAndNothingIsWritten(String main, String variable) throws Exception {
        try (ToolsHarness h = new ToolsHarness(Emulators.shared(), "no-table")) {
            // given the stack's variables with one table's name misspelled
            Map<String, String> env = operatorEnvironment(h);
            String misspelled = env.get(variable) + "-typo";
            env.put(variable, misspelled);

            // when the command runs
            Ran ran = run(main, env, "s3://" + h.bucket + "/logs/");

            // then it says so in one sentence and exits 1, having written nothing
            String tool = main.equals("datalake.tools.BackfillCommand") ? "backfill" : "reconcile";
            assertEquals(List.of(tool + ": there is no table " + misspelled + " (" + variable + ") in "
                    + h.operator.region() + "."), ran.err(), ran.out());
            assertEquals(1, ran.status());
            assertEquals("", ran.out());
            assertEquals(List.of(), h.items());
            assertEquals(0, h.aws.dynamoDb().scan(r -> r.tableName(h.latestTable)).count());
        }
    }

    @Test
    void withoutTheLatestTableTheBackfillIndexesNothing() throws Exception {
        try (ToolsHarness h = new ToolsHarness(Emulators.shared(), "no-latest")) {
            // given the stack's variables but the latest table's
            Map<String, String> env = operatorEnvironment(h);
            env.remove("DATALAKE_LATEST_TABLE");

            // when the backfill runs
            Ran ran = run("datalake.tools.BackfillCommand", env, "s3://" + h.bucket + "/logs/");

            // then it asks for it in one sentence and exits 1, having indexed nothing (no file without its feed)
            assertEquals(List.of("backfill: DATALAKE_LATEST_TABLE is not set; set it to the stack's latest table (the"
                    + " output LatestTableName), as the functions have it."), ran.err(), ran.out());
            assertEquals(1, ran.status());
            assertEquals(List.of(), h.items());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"datalake.tools.BackfillCommand", "datalake.tools.ReconcileCommand"})
    void nothingAnswersIsOneSentenceWithoutSlf4jOrAStackTrace(String main) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        ProcessBuilder builder = new ProcessBuilder(command(main, "s3://nothing-listens-here")).redirectErrorStream(true);
        builder.environment().putAll(Map.of("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:" + port,
                "AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:" + port, "AWS_REGION", "us-east-1",
                "AWS_ACCESS_KEY_ID", "datalakelocal", "AWS_SECRET_ACCESS_KEY", "datalakelocal",
                "DATALAKE_DYNAMODB_TABLE", "nothing-listens-here", "DATALAKE_LATEST_TABLE", "nothing-listens-here",
                "DATALAKE_MAX_BUCKET_SPAN", "30", "DATALAKE_RETENTION_DAYS", "0"));

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
