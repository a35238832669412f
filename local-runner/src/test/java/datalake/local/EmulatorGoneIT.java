package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * moto dies under a running runner (killed, out of memory): the runner said "receive failed, retrying"
 * once a second for ever. It must say which emulator is gone and stop with a non-zero status.
 */
class EmulatorGoneIT {
    @Test
    void whenMotoIsKilledTheRunnerSaysSoAndStopsWithStatus3() throws Exception {
        RunnerHarness runner = RunnerHarness.start("gone-it", "--no-demo");
        try {
            List<ProcessHandle> moto = runner.children();
            assertEquals(1, moto.size(), "moto is the runner's one child process: " + moto);

            moto.get(0).destroyForcibly();
            OptionalInt status = runner.awaitExit(60);

            assertEquals(OptionalInt.of(LocalRunner.EMULATOR_GONE), status, String.join("\n", runner.lines()));
            String port = Integer.toString(URI.create(runner.s3).getPort());
            assertTrue(runner.lines().stream().anyMatch(l -> l.startsWith("error: moto (S3, SQS, SNS) at http://127.0.0.1:"
                    + port + " has exited") && l.endsWith("the local pipeline cannot go on without it, so it stops.")),
                    String.join("\n", runner.lines()));
        } finally {
            runner.close();
        }
    }
}
