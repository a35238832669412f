package datalake.ingester;

import static datalake.ingester.TestFiles.DAY;
import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The memory claim: a batch of 10 messages, each a file spanning 30 day buckets, processes
 * in a 128 MB heap. Failsafe runs this class alone in a JVM started with -Xmx128m (execution
 * {@code memory-128m} in the pom), against moto and dynalite (child processes, outside this heap).
 */
@ExtendWith(EmulatorsExtension.class)
class IngesterMemoryIT {
        static final Emulators AWS = Emulators.shared();
    private static final long MB = 1024 * 1024;

    @Test
    void tenMessagesOfThirtyBucketsEachFitIn128Megabytes() {
        // given a JVM whose heap is capped at 128 MB
        long maxHeap = Runtime.getRuntime().maxMemory();
        assertTrue(maxHeap <= 128 * MB, "this test must run with -Xmx128m, not with " + maxHeap / MB + " MB");
        try (IngesterHarness s = IngesterHarness.create(Emulators.shared(), "memory")) {
            // and ten uploads of files spanning 30 day buckets each
            for (int i = 0; i < 10; i++) {
                s.put("month-" + i + ".log", metadata("syslog", "webserver" + i, "month" + i, START,
                        START + 29 * DAY, "job-" + i));
            }
            List<Message> batch = s.receive(10);
            resetPeaks();

            // when they are handled as one batch
            Set<String> retried = s.handle(batch);

            // then all 300 records are written, and the heap never went past the cap
            assertEquals(Set.of(), retried);
            assertEquals(300, s.items().size());
            assertEquals(10, s.reports(10).size());
            System.out.printf("memory: max heap %d MB, peak heap used during the batch %d MB%n",
                    maxHeap / MB, peakHeapUsed() / MB);
        }
    }

    private static void resetPeaks() {
        System.gc();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    private static long peakHeapUsed() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }
}
