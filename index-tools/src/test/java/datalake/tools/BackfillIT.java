package datalake.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.records.Record;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A backfill of objects already in a bucket (made without notifications), against moto and dynalite:
 * 1,000 objects in the suite ({@code -Ddatalake.backfill.objects=N}; scripts/bench.sh runs
 * 10,000), of which a tenth have no datalake metadata and a tenth invalid metadata. Interrupted after a
 * few pages and resumed from the key it printed; every valid file is indexed exactly once and the
 * rest are counted. The rate, in objects per second, is printed.
 */
@ExtendWith(EmulatorsExtension.class)
class BackfillIT {
    private static final Emulators AWS = Emulators.shared();
    private static final int OBJECTS = Integer.getInteger("datalake.backfill.objects", 1000);

    @Test
    void objectsAlreadyInTheBucketAreIndexedOnceThroughAnInterruptionAndAResume() throws Exception {
        try (ToolsHarness h = new ToolsHarness(AWS, "backfill")) {
            // given the objects, a tenth without metadata and a tenth with invalid metadata
            Map<String, String> objects = new LinkedHashMap<>();
            int valid = 0;
            int without = 0;
            int invalid = 0;
            for (int i = 0; i < OBJECTS; i++) {
                String key = String.format(Locale.ROOT, "data/%06d.log", i);
                if (i % 10 == 3) {
                    objects.put(key, null);
                    without++;
                } else if (i % 10 == 7) {
                    objects.put(key, ToolsHarness.metadata("Not A Slug", "bad" + i, ToolsHarness.START));
                    invalid++;
                } else {
                    objects.put(key, ToolsHarness.metadata("host-" + (i % 13), "f" + i, ToolsHarness.START + i));
                    valid++;
                }
            }
            h.putAll(objects);
            Backfill.Options options = new Backfill.Options(Target.parse("s3://" + h.bucket + "/data/"), null,
                    Math.max(1, OBJECTS / 10), 4, 25);

            // when a backfill is stopped after three pages (or, should the count of the keys be slower, once it is done)
            AtomicInteger pages = new AtomicInteger();
            Backfill first = new Backfill(h.operator.s3(), h.ingester, Clock.systemUTC());
            Backfill.Result stopped = first.run(options, () -> first.counted() && pages.getAndIncrement() >= 3);

            // then it says so, with where to resume; what it listed is settled
            assertTrue(stopped.stopped());
            assertNotNull(stopped.resumeAfter());
            assertTrue(stopped.listed() >= 3L * options.pageSize() && stopped.listed() < OBJECTS, "" + stopped.listed());
            assertEquals(stopped.listed(), stopped.indexed() + stopped.withoutMetadata() + stopped.failed());
            // and its progress bar shows the true fraction of the bucket done, not 100%
            assertEquals(java.util.Optional.of((long) OBJECTS), stopped.total());
            String progress = first.progressLine();
            long percent = stopped.listed() * 100 / OBJECTS;
            assertTrue(progress.startsWith("[" + "#".repeat((int) (stopped.listed() * 24 / OBJECTS))
                    + ".".repeat(24 - (int) (stopped.listed() * 24 / OBJECTS)) + "] " + String.format(Locale.ROOT,
                    "%3d%% %,d of %,d |", percent, stopped.listed(), OBJECTS)), progress);

            // when it is resumed after that key
            Backfill second = new Backfill(h.operator.s3(), h.ingester, Clock.systemUTC());
            Backfill.Options resume = new Backfill.Options(options.target(), stopped.resumeAfter(), options.pageSize(),
                    options.workers(), options.chunk());
            Backfill.Result rest = second.run(resume, () -> false);

            // then every object was listed once, every valid one indexed once, the rest counted
            assertEquals(OBJECTS, stopped.listed() + rest.listed());
            assertEquals(valid, stopped.indexed() + rest.indexed());
            assertEquals(without, stopped.withoutMetadata() + rest.withoutMetadata());
            assertEquals(invalid, stopped.failed() + rest.failed());
            assertTrue(rest.problems().stream().allMatch(p -> p.failure().kind().label().equals("InvalidMetadata")));
            List<Record> records = h.records();
            assertEquals(valid, records.size());
            Set<String> urls = new HashSet<>();
            records.forEach(r -> assertTrue(urls.add(r.url()), "indexed once: " + r.url()));
            assertEquals(OBJECTS, h.entries().size(), "one per-object item per object");
            assertEquals(13, AWS.dynamoDb().scan(r -> r.tableName(h.latestTable)).count(), "a latest entry per host");

            // and a second full run changes nothing (idempotent), and says so: every file unchanged
            Backfill again = new Backfill(h.operator.s3(), h.ingester, Clock.systemUTC());
            Backfill.Result twice = again.run(options, () -> false);
            assertEquals(0, twice.indexed());
            assertEquals(valid, twice.unchanged());
            assertTrue(twice.countsLine().contains(" indexed=0 unchanged=" + valid + " "), twice.countsLine());
            assertEquals(records.size(), h.records().size());

            // and a file changed since is indexed again, the others unchanged
            String changed = String.format(Locale.ROOT, "data/%06d.log", 1);
            h.put(changed, ToolsHarness.metadata("host-1", "f1-changed", ToolsHarness.START + 1));
            Backfill.Result third = new Backfill(h.operator.s3(), h.ingester, Clock.systemUTC()).run(options, () -> false);
            assertEquals(1, third.indexed());
            assertEquals(valid - 1, third.unchanged());

            System.out.printf(Locale.ROOT, "backfill: resumed run %d objects in %d ms, %.0f objects/s; a full run again"
                            + " over the %d objects (idempotent) in %d ms, %.0f objects/s%n", rest.listed(),
                    rest.elapsed().toMillis(), rest.objectsPerSecond(), twice.listed(), twice.elapsed().toMillis(),
                    twice.objectsPerSecond());
        }
    }

    @Test
    void theCommandPrintsTheSummaryTheResumeLineAndTheCountsLast() {
        // the summary of a stopped run, as the command prints it
        Backfill.Result result = new Backfill.Result(300, 200, 40, 30, 30, 0, 0, List.of(), java.util.Optional.of(1200L),
                "data/000299.log", true, java.time.Duration.ofSeconds(2), List.of());
        Backfill.Options options = new Backfill.Options(Target.parse("s3://bucket/data/"), null, 100, 4, 25);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        BackfillCommand.print(result, options, new PrintStream(bytes, true, StandardCharsets.UTF_8));

        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertTrue(lines.get(0).contains("300 listed, 200 indexed, 40 unchanged, 30 skipped without metadata, 30 failed"),
                lines.get(0));
        assertTrue(lines.get(0).contains("150 objects/s"), lines.get(0));
        assertEquals("failed: ... and 30 more", lines.get(1));
        assertEquals("stopped before the end (300 of 1,200 objects, 25%): resume with scripts/backfill.sh"
                + " s3://bucket/data/ --start-after 'data/000299.log'", lines.get(2));
        assertEquals("listed=300 indexed=200 unchanged=40 skipped_without_metadata=30 failed=30 gone=0",
                lines.get(lines.size() - 1));
    }

    @Test
    void aBadTargetIsAUsageErrorInOneSentence() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = BackfillCommand.run(new String[] {"bucket/prefix"}, System.out,
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertEquals(1, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith(
                "backfill: the target must be s3://bucket or s3://bucket/prefix, not 'bucket/prefix'."));
    }
}
