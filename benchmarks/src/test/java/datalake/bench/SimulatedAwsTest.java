package datalake.bench;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import datalake.ingester.IngesterHandler;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Part 7 of scripts/bench.sh runs the real handler on {@link SimulatedAws}: every call it makes must be answered. */
class SimulatedAwsTest {
    private final PrintStream out = System.out;

    @BeforeEach
    void quietLogs() {
        // The handler's JSON log lines, as in the benchmark.
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
    }

    @AfterEach
    void restore() {
        System.setOut(out);
    }

    @Test
    void theHandlerIndexesEveryBatchWithoutAFailureAndEveryCommitIsReadBack() {
        SimulatedAws aws = new SimulatedAws(Duration.ZERO);
        IngesterHandler handler = IngesterJvmBenchmark.handler(aws);
        long next = 0;
        for (int batch = 0; batch < 5; batch++) {
            long from = next;
            // invoke throws when the handler reports a failed message.
            next = assertDoesNotThrow(() -> IngesterJvmBenchmark.invoke(handler, from));
        }
        assertEquals(50, next);
        assertEquals(0, aws.pendingCommits(), "every per-object commit was read back and forgotten");
        // Ten files of ten feeds a batch: 10 HEADs, 10 commits, 10 latest offers, 1 BatchWriteItem,
        // 1 read-back, 1 PublishBatch; and the shard map's GetItem once (kept a minute).
        assertEquals(5 * 33 + 1, aws.calls());
    }
}
