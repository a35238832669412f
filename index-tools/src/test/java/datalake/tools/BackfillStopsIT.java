package datalake.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A backfill that stops before the end says where to resume and exits 3, whether the operator stopped it
 * (Ctrl-C, as scripts/backfill.sh's own JVM gets it) or AWS refused a listing in the middle of the run.
 */
@ExtendWith(EmulatorsExtension.class)
class BackfillStopsIT {
    private static final Emulators AWS = Emulators.shared();

    private static Map<String, String> objects(int count) {
        Map<String, String> objects = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            objects.put(String.format(Locale.ROOT, "data/%06d.log", i),
                    ToolsHarness.metadata("host-" + (i % 5), "f" + i, ToolsHarness.START + i));
        }
        return objects;
    }

    /** The client, but its {@code n}th listing (either form of the call) refused as AWS refuses one. */
    private static S3Client refusingListing(S3Client client, int n) {
        AtomicInteger listings = new AtomicInteger();
        return (S3Client) Proxy.newProxyInstance(S3Client.class.getClassLoader(), new Class<?>[] {S3Client.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("listObjectsV2") && listings.incrementAndGet() == n) {
                        throw S3Exception.builder().statusCode(403).awsErrorDetails(AwsErrorDetails.builder()
                                .serviceName("S3").errorCode("ExpiredToken").errorMessage("The token has expired.")
                                .build()).build();
                    }
                    try {
                        return method.invoke(client, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void aListingRefusedInTheMiddleEndsTheRunWithWhereToResume() throws Exception {
        try (ToolsHarness h = new ToolsHarness(AWS, "backfill-refused")) {
            h.putAll(objects(50));
            Backfill.Options options = new Backfill.Options(Target.parse("s3://" + h.bucket + "/data/"), null, 10, 2, 5);

            // when the fourth listing is refused (credentials that expired during a long run)
            Backfill refused = new Backfill(refusingListing(h.operator.s3(), 4), h.ingester, Clock.systemUTC());
            Backfill.Failed failed = assertThrows(Backfill.Failed.class, () -> refused.run(options, () -> false));

            // then what it did is kept, with the last finished page's last key to resume after
            Backfill.Result partial = failed.partial();
            assertTrue(partial.stopped());
            assertEquals(30, partial.indexed());
            assertEquals("data/000029.log", partial.resumeAfter());
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            BackfillCommand.print(partial, options, new PrintStream(bytes, true, StandardCharsets.UTF_8));
            String printed = bytes.toString(StandardCharsets.UTF_8);
            assertTrue(printed.contains(": resume with scripts/backfill.sh s3://" + h.bucket
                    + "/data/ --start-after 'data/000029.log'"), printed);
            // and resuming there indexes the rest
            Backfill.Result rest = new Backfill(h.operator.s3(), h.ingester, Clock.systemUTC()).run(new Backfill.Options(
                    options.target(), partial.resumeAfter(), 10, 2, 5), () -> false);
            assertEquals(20, rest.indexed());
            assertEquals(50, h.records().size());
        }
    }

    @Test
    void ctrlCStopsTheCommandAfterItsPageWithStatus3AndWhereToResume() throws Exception {
        try (ToolsHarness h = new ToolsHarness(AWS, "backfill-sigint")) {
            h.putAll(objects(400));
            Path module = Path.of("").toAbsolutePath();
            ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", module.resolve("target/classes") + ":"
                            + Files.readString(module.resolve("target/classpath.txt")).strip(),
                    "datalake.tools.BackfillCommand", "s3://" + h.bucket + "/data/", "--page-size", "5", "--workers", "1",
                    "--chunk", "1");
            Map<String, String> env = new HashMap<>(h.stack.backfill().environment());
            env.putAll(h.operator.endpointEnvironment());
            env.putIfAbsent("DATALAKE_RETENTION_DAYS", "0");
            builder.environment().putAll(env);
            Path out = Files.createTempFile("backfill-sigint", ".out");
            builder.redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
            Process process = builder.start();
            try {
                // when it has indexed a few pages, Ctrl-C (SIGINT, as a terminal sends it)
                long deadline = System.currentTimeMillis() + 60_000;
                while (h.entries().size() < 10 && System.currentTimeMillis() < deadline && process.isAlive()) {
                    Thread.sleep(100);
                }
                assertTrue(process.isAlive(), "still running after " + h.entries().size() + " objects");
                assertEquals(0, new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor());

                // then it finishes its page, prints where to resume and the counts, and exits 3 (not 130)
                assertTrue(process.waitFor(120, TimeUnit.SECONDS));
                String printed = Files.readString(out);
                assertEquals(3, process.exitValue(), printed);
                List<String> lines = printed.lines().toList();
                assertTrue(printed.contains("stopped before the end") && printed.contains(" --start-after 'data/"), printed);
                assertTrue(lines.get(lines.size() - 1).startsWith("listed="), printed);
            } finally {
                process.destroyForcibly();
                Files.deleteIfExists(out);
            }
        }
    }
}
