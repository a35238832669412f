package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * scripts/invoke.sh as a person runs it, on one local stack (scripts/local.sh's runner, on ports of its
 * own): every file of events/ goes through it, with the status it is expected to get. The samples name
 * the bucket {@code datalake-example}; the test puts the objects they name there (with datalake
 * metadata, the query samples' file {@value #FILE_ID} among them), as a user reproducing a notification
 * would. Invocation events are given with {@code -e FILE}; the message bodies of s3/, sns/ and
 * eventbridge/ on standard input ({@code -e -}), inside the SQS event that carries them to the ingester.
 */
class InvokeIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String FILE_ID = "6309e115c2914d0f8622973422626954";
    private static final String PREFIX = "invoke-it";
    private static RunnerHarness runner;
    private static int motoPort;
    private static int dynamoDbPort;

    @TempDir
    Path dir;

    @BeforeAll
    static void startTheLocalStackAndPutTheSamplesObjects() throws Exception {
        motoPort = freePort();
        dynamoDbPort = freePort();
        runner = RunnerHarness.start(PREFIX, "--no-demo", "--moto-port", Integer.toString(motoPort),
                "--dynamodb-port", Integer.toString(dynamoDbPort));
        try (S3Client s3 = runner.s3Client()) {
            s3.createBucket(r -> r.bucket("datalake-example"));
            put(s3, "datalake-example", "2024/05/14/sensor-1.csv", FILE_ID, "sensor-1");
            put(s3, "datalake-example", "2024/05/14/sensor 2.csv", "7309e115c2914d0f8622973422626954", "sensor-2");
            put(s3, "datalake-example", "2024/05/14/sensor 1+.csv", "8309e115c2914d0f8622973422626954", "sensor-1");
            // Where the query function reads a file by id: <storage bucket>/<id>/data, as the client pushes it.
            put(s3, runner.bucket, FILE_ID + "/data", FILE_ID, "sensor-1");
        }
    }

    @AfterAll
    static void stop() {
        if (runner != null) {
            runner.close();
        }
    }

    @Test
    void everySampleGetsItsExpectedStatus() throws Exception {
        // In this order: the ingester's samples index the objects the query samples then find; the bodies
        // (deletes among them) come last.
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("ingester/invoke/s3-put.json", "exit 0, failures 0, errors []");
        expected.put("ingester/invoke/sns-envelope-put.json", "exit 0, failures 0, errors []");
        expected.put("ingester/invoke/sns-raw-put.json", "exit 0, failures 0, errors []");
        expected.put("ingester/invoke/eventbridge-object-created.json", "exit 0, failures 0, errors []");
        expected.put("ingester/invoke/s3-test-event.json", "exit 0, failures 0, errors []");
        // Its third message's body is not JSON: dead-lettered with its reason by the ingester, not retried.
        expected.put("ingester/sqs/mixed-batch.json", "exit 0, failures 0, errors [BadJson]");
        expected.put("ingester/batch/s3-batch-v2.json", "exit 0, Succeeded");
        expected.put("query/archive.json", "exit 0, 200");
        expected.put("query/environment.json", "exit 0, 200");
        // Three objects are indexed, all readings of 2024-05-14, two from sensor-1, all of work calibration-7.
        expected.put("query/files-time.json", "exit 0, 200 with 2 records");
        expected.put("query/files-time-iso.json", "exit 0, 200 with 3 records");
        expected.put("query/files-work-id.json", "exit 0, 200 with 3 records");
        expected.put("query/file-metadata.json", "exit 0, 200");
        expected.put("query/file-data.json", "exit 0, 302");
        expected.put("query/latest.json", "exit 0, 200");
        expected.put("query/latest-data.json", "exit 0, 302");
        expected.put("query/bad-time.json", "exit 0, 400");
        expected.put("query/no-such-file.json", "exit 0, 404");
        expected.put("query/feeds.json", "exit 0, 200");
        expected.put("query/coverage.json", "exit 0, 200");
        String ok = "exit 0, failures 0, errors []";
        for (String body : List.of("s3/complete-multipart-upload", "s3/copy", "s3/delete-marker-created", "s3/delete",
                "s3/encoded-key", "s3/lifecycle-expiration-delete-marker", "s3/lifecycle-expiration-delete",
                "s3/no-sequencer", "s3/post", "s3/put", "s3/test-event", "s3/two-records", "sns/envelope-put",
                "sns/envelope-test-event", "eventbridge/object-created-special-key", "eventbridge/object-created",
                "eventbridge/object-deleted-lifecycle", "eventbridge/object-deleted")) {
            expected.put("ingester/" + body + ".json", ok);
        }
        // Dead-lettered with their reasons, as designed: what the datalake does not index, and S3's old format.
        expected.put("ingester/s3/restore-post.json", "exit 0, failures 0, errors [UnsupportedS3Event]");
        expected.put("ingester/eventbridge/object-restore-initiated.json", "exit 0, failures 0, errors [UnsupportedS3Event]");
        expected.put("ingester/s3/event-version-1.json", "exit 0, failures 0, errors [BadNotification]");
        expected.put("ingester/sns/subscription-confirmation.json", "exit 0, failures 0, errors [BadNotification]");

        Map<String, String> actual = new LinkedHashMap<>();
        for (String sample : expected.keySet()) {
            if (!sample.startsWith("ingester/s3/") && !sample.startsWith("ingester/sns/")
                    && !sample.startsWith("ingester/eventbridge/")) {
                actual.put(sample, status(sample));
            }
        }
        for (String folder : List.of("s3", "sns", "eventbridge")) {
            actual.putAll(bodyStatuses(folder));
        }

        assertEquals(new TreeSet<>(allSamples()), new TreeSet<>(expected.keySet()), "every file of events/ is run");
        assertEquals(new TreeMap<>(expected), new TreeMap<>(actual));
    }

    @Test
    void withoutALocalStackItSaysSoInOneSentence() throws Exception {
        int port = freePort();
        Result result = invoke(List.of("QueryFunction", "-e", "events/query/archive.json"), null,
                Map.of("DATALAKE_LOCAL_MOTO_PORT", Integer.toString(port)));

        assertEquals(Invoke.NO_STACK, result.exit());
        assertEquals("", result.stdout());
        assertEquals(List.of("error: the local stack is not running: nothing answers at http://127.0.0.1:" + port
                + " (moto); start scripts/local.sh first (with the DATALAKE_LOCAL_* ports it used)."), result.stderr());
    }

    @Test
    void anotherPrefixIsAStackThatIsNotThere() throws Exception {
        Result result = invoke(List.of("QueryFunction", "-e", "events/query/archive.json",
                "--parameter-overrides", "ParameterKey=NamePrefix,ParameterValue=nothere"), null, Map.of());

        assertEquals(Invoke.NO_STACK, result.exit());
        assertEquals(1, result.stderr().size(), String.join("\n", result.stderr()));
        assertTrue(result.stderr().get(0).startsWith("error: the local stack has no "), result.stderr().get(0));
    }

    @Test
    void anEventTheHandlerCannotReadIsAFunctionErrorAsLambdaAnswersIt() throws Exception {
        Result result = invoke(List.of("IngesterFunction", "-e", "-"), "[\"not\", \"an SQS event\"]", Map.of());

        assertEquals(Invoke.FUNCTION_ERROR, result.exit(), String.join("\n", result.stderr()));
        JsonNode error = JSON.readTree(result.stdout());
        assertEquals(List.of("errorMessage", "errorType"), List.copyOf(iterable(error.fieldNames())));
        assertTrue(String.join("\n", result.stderr()).contains("\nREPORT RequestId: "), "the log still ends the invocation");
    }

    @Test
    void anUnknownFunctionIsNamedWithTheFunctionsThereAre() throws Exception {
        Result result = invoke(List.of("NoSuchFunction", "-e", "events/query/archive.json"), null, Map.of());

        assertEquals(Invoke.USAGE, result.exit());
        assertEquals(List.of("error: template.yaml has no function NoSuchFunction; its functions are BackfillFunction,"
                + " IngesterFunction, QueryFunction."), result.stderr());
    }

    /** What an invocation sample got: the exit status and the status its function's response (and log) carries. */
    private String status(String sample) throws IOException, InterruptedException {
        String function = sample.startsWith("query/") ? "QueryFunction"
                : sample.startsWith("ingester/batch/") ? "BackfillFunction" : "IngesterFunction";
        Result result = invoke(List.of(function, "-e", "events/" + sample), null, Map.of());
        assertLambdasLog(sample, result);
        JsonNode response = JSON.readTree(result.stdout());
        String status = switch (function) {
            case "QueryFunction" -> response.path("statusCode").asInt()
                    + (response.path("statusCode").asInt() == 200 && JSON.readTree(response.path("body").asText()).has("records")
                    ? " with " + JSON.readTree(response.path("body").asText()).path("records").size() + " records" : "");
            case "BackfillFunction" -> response.path("results").path(0).path("resultCode").asText();
            default -> "failures " + response.path("batchItemFailures").size() + ", errors "
                    + errorKinds(result.stderr(), null);
        };
        return "exit " + result.exit() + ", " + status;
    }

    /**
     * The message bodies of one folder, each one message of one SQS event on standard input, as the queue
     * delivers them (its message id the sample's name): each message's status.
     */
    private Map<String, String> bodyStatuses(String folder) throws IOException, InterruptedException {
        List<Path> bodies = samples(folder).toList();
        ArrayNode records = JSON.createArrayNode();
        for (Path body : bodies) {
            records.add(sqsMessage(ROOT.resolve("events").relativize(body).toString(), Files.readString(body)));
        }
        ObjectNode event = JSON.createObjectNode();
        event.set("Records", records);
        Result result = invoke(List.of("IngesterFunction", "-e", "-"), JSON.writeValueAsString(event), Map.of());
        assertLambdasLog(folder, result);
        JsonNode failures = JSON.readTree(result.stdout()).path("batchItemFailures");
        Map<String, String> statuses = new LinkedHashMap<>();
        for (Path body : bodies) {
            String sample = ROOT.resolve("events").relativize(body).toString();
            int failed = 0;
            for (JsonNode failure : failures) {
                failed += failure.path("itemIdentifier").asText().equals(sample) ? 1 : 0;
            }
            statuses.put(sample, "exit " + result.exit() + ", failures " + failed + ", errors "
                    + errorKinds(result.stderr(), sample));
        }
        return statuses;
    }

    private static void assertLambdasLog(String sample, Result result) {
        String log = String.join("\n", result.stderr());
        assertTrue(log.contains("START RequestId: ") && log.contains("\nEND RequestId: ") && log.contains("\nREPORT RequestId: ")
                && log.contains("\tMemory Size: 1024 MB\t"), sample + "'s log is Lambda's: " + log);
    }

    /** The error kinds of the messages (of one, unless null) that the ingester logged as failed, in order. */
    private static List<String> errorKinds(List<String> log, String messageId) throws IOException {
        List<String> kinds = new ArrayList<>();
        for (String line : log) {
            if (line.startsWith("{") && line.contains("\"message handled\"")) {
                JsonNode entry = JSON.readTree(line);
                if (entry.has("error_kind") && (messageId == null || entry.path("messageId").asText().equals(messageId))) {
                    kinds.add(entry.path("error_kind").asText());
                }
            }
        }
        return kinds;
    }

    /** An SQS message with this body, as the ingest queue delivers it. */
    private static ObjectNode sqsMessage(String messageId, String body) {
        ObjectNode record = JSON.createObjectNode().put("messageId", messageId).put("receiptHandle", "local")
                .put("body", body).put("md5OfBody", "").put("eventSource", "aws:sqs")
                .put("eventSourceARN", "arn:aws:sqs:us-east-1:123456789012:" + PREFIX + "-ingest").put("awsRegion", "us-east-1");
        record.putObject("attributes").put("ApproximateReceiveCount", "1").put("SentTimestamp", "1715679065000")
                .put("SenderId", "AIDAEXAMPLE").put("ApproximateFirstReceiveTimestamp", "1715679065000");
        record.putObject("messageAttributes");
        return record;
    }

    private Result invoke(List<String> args, String stdin, Map<String, String> env) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("scripts/invoke.sh"));
        command.addAll(args);
        Path out = Files.createTempFile(dir, "stdout", ".json");
        Path err = Files.createTempFile(dir, "stderr", ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(ROOT.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().put("DATALAKE_LOCAL_MOTO_PORT", Integer.toString(motoPort));
        builder.environment().put("DATALAKE_LOCAL_DYNAMODB_PORT", Integer.toString(dynamoDbPort));
        builder.environment().put("DATALAKE_LOCAL_PREFIX", PREFIX);
        builder.environment().putAll(env);
        Process process = builder.start();
        try (var in = process.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        }
        assertTrue(process.waitFor(180, TimeUnit.SECONDS), "scripts/invoke.sh " + args + " returns");
        return new Result(process.exitValue(), Files.readString(out), Files.readAllLines(err));
    }

    private static List<String> iterable(java.util.Iterator<String> names) {
        List<String> list = new ArrayList<>();
        names.forEachRemaining(list::add);
        return list;
    }

    private record Result(int exit, String stdout, List<String> stderr) {
    }

    private static Stream<Path> samples(String ingesterFolder) {
        try {
            return Files.list(ROOT.resolve("events/ingester").resolve(ingesterFolder)).sorted();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<String> allSamples() throws IOException {
        Path events = ROOT.resolve("events");
        try (Stream<Path> files = Files.walk(events)) {
            return files.filter(p -> p.toString().endsWith(".json")).map(p -> events.relativize(p).toString()).toList();
        }
    }

    private static void put(S3Client s3, String bucket, String key, String id, String where) {
        String metadata = "{\"version\":0,\"start\":1715679064000,\"end\":null,\"path\":\"/data/" + where + ".csv\","
                + "\"work_id\":\"calibration-7\",\"where\":\"" + where + "\",\"what\":\"readings\",\"id\":\"" + id + "\","
                + "\"hash\":\"a3e75ee4f45f676422e038f2c116d000\"}";
        s3.putObject(r -> r.bucket(bucket).key(key).metadata(Map.of("datalake", metadata)),
                RequestBody.fromString("time,value\n1715679064000,1\n"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
