package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An emulator dies under a running runner (killed, out of memory): the runner said "receive failed,
 * retrying" once a second for ever. It must say which emulator is gone and stop with a non-zero status.
 */
class EmulatorGoneIT {
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "moto_server, 'moto (S3, SQS, SNS)', s3",
            "datalake-dynalite, dynalite (DynamoDB), dynamodb"})
    void whenAnEmulatorIsKilledTheRunnerSaysWhichAndStopsWithStatus3(String commandWord, String named, String endpoint)
            throws Exception {
        RunnerHarness runner = RunnerHarness.start("gone-it", "--no-demo");
        try {
            List<ProcessHandle> children = runner.children();
            assertEquals(2, children.size(), "moto and dynalite are the runner's child processes: " + children);
            List<ProcessHandle> emulator = children.stream()
                    .filter(p -> p.info().commandLine().orElse("").contains(commandWord)).toList();
            assertEquals(1, emulator.size(), commandWord + " among " + children);

            emulator.get(0).destroyForcibly();
            OptionalInt status = runner.awaitExit(60);

            assertEquals(OptionalInt.of(LocalRunner.EMULATOR_GONE), status, String.join("\n", runner.lines()));
            String port = Integer.toString(URI.create(endpoint.equals("s3") ? runner.s3 : dynamoDbEndpoint(runner)).getPort());
            assertTrue(runner.lines().stream().anyMatch(l -> l.startsWith("error: " + named + " at http://127.0.0.1:"
                    + port + " has exited") && l.endsWith("the local pipeline cannot go on without it, so it stops.")),
                    String.join("\n", runner.lines()));
        } finally {
            runner.close();
        }
    }

    /** The endpoint of the startup message's "  DynamoDB       http://..." line. */
    private static String dynamoDbEndpoint(RunnerHarness runner) {
        return runner.lines().stream().filter(l -> l.startsWith("  DynamoDB ")).findFirst()
                .map(l -> l.trim().split("\\s+")[1]).orElseThrow(() -> new AssertionError("no DynamoDB line"));
    }
}
