package datalake.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.ingester.Ingester;
import datalake.ingester.IngesterClients;
import datalake.ingester.Telemetry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A backfill that stops before the end says where to resume and exits 3, whether the operator stopped it
 * (Ctrl-C, as scripts/backfill.sh's own JVM gets it), AWS refused a listing in the middle of the run or
 * DynamoDB failed every call; and a resume point never passes an object that a later run may index.
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

    /**
     * The client, but each call {@code failing} says to fail (by the method's name and arguments) fails with
     * {@code failure} instead of reaching it.
     */
    @SuppressWarnings("unchecked")
    private static <T> T failing(Class<T> type, T client, BiPredicate<String, Object[]> failing,
            RuntimeException failure) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            if (!method.getName().equals("close") && !method.getName().equals("serviceName")
                    && failing.test(method.getName(), args)) {
                throw failure;
            }
            try {
                return method.invoke(client, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    /** An ingester on the harness's clients, but S3 answers 503 to every HEAD of {@code key}. */
    private static Ingester headsUnavailable(ToolsHarness h, String key) {
        return headsUnavailable(h, Set.of(key));
    }

    /** An ingester on the harness's clients, but S3 answers 503 to every HEAD of these keys. */
    private static Ingester headsUnavailable(ToolsHarness h, Set<String> keys) {
        S3Client s3 = failing(S3Client.class, h.operator.s3(), (method, args) -> method.equals("headObject")
                && keys.contains(headKey(args[0])),
                S3Exception.builder().statusCode(503).awsErrorDetails(AwsErrorDetails.builder().serviceName("S3")
                        .errorCode("ServiceUnavailable").errorMessage("Please reduce your request rate.").build())
                        .build());
        return Ingester.forAws(h.config, new IngesterClients(s3, h.operator.dynamoDb(), null, null))
                .concurrency(4).telemetry(Telemetry.discarding()).build();
    }

    /** The key a HEAD asks for, in either form of the call. */
    @SuppressWarnings("unchecked")
    private static String headKey(Object request) {
        if (request instanceof HeadObjectRequest head) {
            return head.key();
        }
        HeadObjectRequest.Builder builder = HeadObjectRequest.builder();
        ((Consumer<HeadObjectRequest.Builder>) request).accept(builder);
        return builder.build().key();
    }

    private static String printed(Backfill.Result result, Backfill.Options options) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BackfillCommand.print(result, options, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void dynamoDbFailingEveryCallStopsTheRunWithAResumePointBeforeTheFirstObjectItFailed() throws Exception {
        try (ToolsHarness h = new ToolsHarness(AWS, "backfill-outage")) {
            h.putAll(objects(50));
            Backfill.Options options = new Backfill.Options(Target.parse("s3://" + h.bucket + "/data/"), null, 10, 2, 5);
            // given DynamoDB failing every call once the second page is listed (an outage a page into the run)
            AtomicBoolean down = new AtomicBoolean();
            AtomicInteger listings = new AtomicInteger();
            S3Client s3 = failing(S3Client.class, h.operator.s3(), (method, args) -> {
                if (method.equals("listObjectsV2") && listings.incrementAndGet() == 2) {
                    down.set(true);
                }
                return false;
            }, null);
            DynamoDbClient dynamoDb = failing(DynamoDbClient.class, h.operator.dynamoDb(), (method, args) -> down.get(),
                    SdkClientException.create("Unable to execute HTTP request: Connection refused"));
            try (Ingester ingester = Ingester.forAws(h.config, new IngesterClients(h.operator.s3(), dynamoDb, null, null))
                    .concurrency(4).telemetry(Telemetry.discarding()).build()) {

                // when a backfill runs
                Backfill backfill = new Backfill(s3, ingester, Clock.systemUTC());
                Backfill.Failed failed = assertThrows(Backfill.Failed.class, () -> backfill.run(options, () -> false));

                // then it stops after that page, exit status 3, saying why, with a resume point before its first object
                Backfill.Result partial = failed.partial();
                assertEquals(3, BackfillCommand.status(partial));
                assertEquals(20, partial.listed(), "no page listed after the failing one");
                assertEquals(10, partial.indexed());
                assertEquals("data/000009.log", partial.resumeAfter());
                assertTrue(failed.getMessage().startsWith("AWS kept failing, so the run stopped: AWS answered no object"
                        + " of a chunk, and its objects still failed after 3 attempts (Network: s3://" + h.bucket + "/data/0000"),
                        failed.getMessage());
                assertTrue(printed(partial, options).contains(": resume with scripts/backfill.sh s3://" + h.bucket
                        + "/data/ --start-after 'data/000009.log'\n"), printed(partial, options));
            }

            // and resuming there leaves nothing missing
            Backfill.Result rest = new Backfill(h.operator.s3(), h.ingester, Clock.systemUTC()).run(new Backfill.Options(
                    options.target(), "data/000009.log", 10, 2, 5), () -> false);
            assertEquals(0, BackfillCommand.status(rest));
            assertEquals(40, rest.indexed());
            assertEquals(List.of(), ReconcileCommand.of(h.tools(), 8).run(options.target(), false).findings());
        }
    }

    @Test
    void anObjectStillFailingTransientlyHoldsTheResumePointBackWithoutStoppingTheRun() throws Exception {
        try (ToolsHarness h = new ToolsHarness(AWS, "backfill-transient")) {
            h.putAll(objects(50));
            Backfill.Options options = new Backfill.Options(Target.parse("s3://" + h.bucket + "/data/"), null, 10, 2, 5);
            // given S3 answering 503 to every HEAD of one object (its neighbours in the chunk indexed)
            try (Ingester ingester = headsUnavailable(h, "data/000013.log")) {

                // when a backfill runs
                Backfill.Result result = new Backfill(h.operator.s3(), ingester, Clock.systemUTC()).run(options,
                        () -> false);

                // then it goes to the end, that object failed, and the resume point is just before it
                assertEquals(2, BackfillCommand.status(result));
                assertEquals(49, result.indexed());
                assertEquals(1, result.failedTransiently());
                assertEquals("data/000012.log", result.resumeAfter());
                List<String> retry = words(advice(printed(result, options), "1 failed transiently: retry them with "));
                assertEquals(List.of("scripts/backfill.sh", "s3://" + h.bucket + "/data/", "--keys-from"), retry.subList(0, 3));
                assertEquals(List.of("data/000013.log"), Files.readAllLines(Path.of(retry.get(3))));
                Files.delete(Path.of(retry.get(3)));
            }
        }
    }

    @Test
    void theAdvisedRetryFollowsExactlyTheObjectsThatFailedTransiently() throws Exception {
        try (ToolsHarness h = new ToolsHarness(AWS, "backfill-retry")) {
            h.putAll(objects(50));
            Backfill.Options options = new Backfill.Options(Target.parse("s3://" + h.bucket + "/data/"), null, 10, 2, 5);
            // given S3 answering 503 to every HEAD of three objects, the first early in the listing
            Set<String> failing = Set.of("data/000003.log", "data/000017.log", "data/000031.log");
            String advice;
            try (Ingester ingester = headsUnavailable(h, failing)) {
                Backfill.Result result = new Backfill(h.operator.s3(), ingester, Clock.systemUTC()).run(options,
                        () -> false);
                assertEquals(47, result.indexed());
                assertEquals(3, result.failedTransiently());
                advice = advice(printed(result, options), "3 failed transiently: retry them with ");
            }

            // when S3 answers again and the operator runs the command the summary advised, as the script runs it
            List<String> words = words(advice);
            assertEquals("scripts/backfill.sh", words.get(0));
            Path out = Files.createTempFile("backfill-retry", ".out");
            try {
                Process process = command(h, words.subList(1, words.size())).redirectOutput(out.toFile())
                        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
                assertTrue(process.waitFor(120, TimeUnit.SECONDS));
                String printed = Files.readString(out);

                // then it reads those three objects and no other, and indexes them: the bucket is indexed whole
                assertEquals(0, process.exitValue(), printed);
                List<String> lines = printed.lines().toList();
                assertEquals("listed=3 indexed=3 unchanged=0 skipped_without_metadata=0 failed=0 gone=0",
                        lines.get(lines.size() - 1), printed);
                assertEquals(50, h.records().size());
                assertEquals(List.of(), ReconcileCommand.of(h.tools(), 8).run(options.target(), false).findings());
            } finally {
                keysFile(words).ifPresent(file -> file.toFile().delete());
                Files.deleteIfExists(out);
            }
        }
    }

    /** The rest of the line of the printed summary that starts with {@code start}. */
    private static String advice(String printed, String start) {
        return printed.lines().filter(line -> line.startsWith(start)).findFirst()
                .orElseThrow(() -> new AssertionError("no line \"" + start + "...\" in:\n" + printed))
                .substring(start.length());
    }

    /** The words of a command line as a POSIX shell reads them (single quotes, backslashes, blanks). */
    private static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == ' ') {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
                continue;
            }
            word = word == null ? new StringBuilder() : word;
            if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                word.append(line, i + 1, end);
                i = end;
            } else if (c == '\\') {
                word.append(line.charAt(++i));
            } else {
                word.append(c);
            }
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }

    /** The file after {@code --keys-from} among the words, if any. */
    private static java.util.Optional<Path> keysFile(List<String> words) {
        int at = words.indexOf("--keys-from");
        return at < 0 ? java.util.Optional.empty() : java.util.Optional.of(Path.of(words.get(at + 1)));
    }

    /** BackfillCommand in its own JVM, as scripts/backfill.sh runs it, with the backfill function's variables. */
    private static ProcessBuilder command(ToolsHarness h, List<String> args) throws Exception {
        Path module = Path.of("").toAbsolutePath();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", module.resolve("target/classes") + ":"
                        + Files.readString(module.resolve("target/classpath.txt")).strip(),
                "datalake.tools.BackfillCommand"));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> env = new HashMap<>(h.stack.backfill().environment());
        env.putAll(h.operator.endpointEnvironment());
        env.putIfAbsent("DATALAKE_RETENTION_DAYS", "0");
        builder.environment().putAll(env);
        return builder;
    }

    @Test
    void anObjectFailingAloneInItsChunkStopsNothing() throws Exception {
        try (ToolsHarness h = new ToolsHarness(AWS, "backfill-alone")) {
            h.putAll(objects(51));
            Backfill.Options options = new Backfill.Options(Target.parse("s3://" + h.bucket + "/data/"), null, 10, 2, 5);
            // given S3 answering 503 to every HEAD of the last object, alone in the last chunk, and AWS
            // answering everything else
            try (Ingester ingester = headsUnavailable(h, "data/000050.log")) {

                // when a backfill runs
                Backfill.Result result = new Backfill(h.operator.s3(), ingester, Clock.systemUTC()).run(options,
                        () -> false);

                // then it is not taken for AWS failing: the run ends (status 2, not 3), the rest indexed
                assertEquals(2, BackfillCommand.status(result));
                assertEquals(50, result.indexed());
                assertEquals(1, result.failedTransiently());
                assertEquals("data/000049.log", result.resumeAfter());
            }
        }
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
            ProcessBuilder builder = command(h, List.of("s3://" + h.bucket + "/data/", "--page-size", "5", "--workers",
                    "1", "--chunk", "1"));
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
