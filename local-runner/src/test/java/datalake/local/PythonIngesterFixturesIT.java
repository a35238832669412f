package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.emulators.SqsLambdaPoller;
import datalake.query.QueryHandler;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The Python datalake ingester's own test specifications (src/test/resources/python-ingester-fixtures,
 * copied unchanged; its README says whence and under which licence), run through this pipeline: each
 * spec's S3 files put in a bucket that notifies nobody, its SNS notification sent to the ingest queue as
 * SNS delivers it, the ingester run by Lambda's poller, then the report, the dead-letter queue and the
 * query API checked. Every file the Python ingester indexes is indexed here, its {@code hash} ("12345",
 * "6789": the Python datalake never checked one) served as given, and every report has the Python
 * ingester's status, but for one documented difference: an {@code ObjectCreated:Post} whose key is
 * gone is a removal here (success), an error there. Specs share a key (and ids), so each runs under a
 * folder of its name and is checked before the next.
 */
@ExtendWith(EmulatorsExtension.class)
class PythonIngesterFixturesIT {
    private static final Emulators AWS = Emulators.shared();
    private static final String FOLDER = "python-ingester-fixtures/";
    private static final String PYTHON_BUCKET = "datalake-test";
    private static final List<String> SPECS = List.of(
            "s3-notification-one-record.json",
            "s3-notification-multipart-event.json",
            "s3-notification-null-end-time.json",
            "s3-notification-two-s3-records.json",
            "s3-notification-test-event.json",
            "s3-notification-unsupported-event.json",
            "bad-s3-notification-no-metadata.json",
            "bad-s3-notification-no-event-version.json",
            "bad-s3-notification-unsupported-event-version.json",
            "bad-s3-notification-no-message.json");
    /** The one spec whose outcome differs by design (docs/DESIGN.md, "The index follows the bucket"). */
    private static final String GONE_KEY_POST = "s3-notification-unsupported-event.json";

    @Test
    void everySpecOfThePythonIngesterHasItsOutcomeAndEveryHashIsServedAsGiven() throws Exception {
        try (PipelineHarness p = new PipelineHarness(AWS, "py-fixtures", Map.of(), 5, false)) {
            SqsLambdaPoller poller = p.poller(p.handler(p.ingesterAws.s3(), p.ingesterAws.dynamoDb()));
            QueryHandler query = p.queryHandler();
            Map<String, String> outcomes = new TreeMap<>();
            int indexedFiles = 0;
            for (String name : SPECS) {
                JsonNode spec = read(name);
                String folder = name.replace(".json", "");
                JsonNode event = spec.path("event_specifications").get(0);

                // given the spec's S3 files, under a folder of its name
                for (JsonNode file : event.path("s3_files")) {
                    String key = folder + "/" + file.path("url").asText().substring(("s3://" + PYTHON_BUCKET + "/").length());
                    Map<String, String> userMetadata = file.has("metadata")
                            ? Map.of("datalake", file.path("metadata").toString()) : Map.of();
                    AWS.s3().putObject(r -> r.bucket(p.bucket()).key(key).metadata(userMetadata),
                            RequestBody.fromString("content of " + key));
                }

                // when its notification arrives on the ingest queue and the ingester handles it
                String body = notification(event.path("s3_notification"), p.bucket(), folder);
                AWS.sqs().sendMessage(r -> r.queueUrl(p.stack.ingestQueueUrl()).messageBody(body));
                JsonNode report = awaitReport(p, poller, name);

                // then the report has the Python ingester's status, the difference aside
                String pythonStatus = spec.path("expected_reports").get(0).path("status").asText();
                String status = report.path("status").asText();
                outcomes.put(name, status);
                assertEquals(name.equals(GONE_KEY_POST) ? "success" : pythonStatus, status, name + ": " + report);
                List<Message> dead = p.drain(p.stack.deadLetterQueueUrl(), 0);
                assertEquals(status.equals("error") ? 1 : 0, dead.size(), name + " dead-lettered");

                // and each file it indexes is in the report and found by the query API with its metadata as given
                List<String> reported = new ArrayList<>();
                report.path("records").forEach(r -> reported.add(r.path("url").asText()));
                List<String> expected = new ArrayList<>();
                for (JsonNode record : event.path("expected_datalake_records")) {
                    String url = ours(record.path("url").asText(), p.bucket(), folder);
                    expected.add(url);
                    assertServed(query, url, record.path("metadata"), name);
                    indexedFiles++;
                }
                assertEquals(expected, reported, name + " reports its files");
            }
            assertEquals(5, indexedFiles, "the five files of the Python ingester's four indexing specs");
            assertEquals("success", outcomes.get(GONE_KEY_POST));
        }
    }

    private static JsonNode read(String name) throws IOException {
        try (InputStream in = PythonIngesterFixturesIT.class.getClassLoader().getResourceAsStream(FOLDER + name)) {
            if (in == null) {
                throw new IllegalStateException("no test resource " + FOLDER + name);
            }
            return PipelineHarness.JSON.readTree(in);
        }
    }

    /** The spec's SNS envelope, its S3 event naming this bucket and the keys under the spec's folder. */
    private static String notification(JsonNode envelope, String bucket, String folder) {
        ObjectNode copy = envelope.deepCopy();
        if (copy.has("Message")) {
            copy.put("Message", copy.path("Message").asText()
                    .replace("\"name\":\"" + PYTHON_BUCKET + "\"", "\"name\":\"" + bucket + "\"")
                    .replace("\"key\":\"", "\"key\":\"" + folder + "/"));
        }
        return copy.toString();
    }

    private static String ours(String pythonUrl, String bucket, String folder) {
        return "s3://" + bucket + "/" + folder + "/" + pythonUrl.substring(("s3://" + PYTHON_BUCKET + "/").length());
    }

    /** Polls until the message's report arrives. */
    private static JsonNode awaitReport(PipelineHarness p, SqsLambdaPoller poller, String name) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            poller.pollOnce(1);
            List<Message> reports = p.drain(p.reportQueueUrl, 1);
            if (!reports.isEmpty()) {
                assertEquals(1, reports.size(), name + ": one report");
                return PipelineHarness.parse(reports.get(0).body());
            }
        }
        throw new AssertionError(name + ": no report within 60 s");
    }

    /** A time query over the file's what, where and range finds it, its metadata as the producer wrote it. */
    private static void assertServed(QueryHandler query, String url, JsonNode metadata, String name) {
        long start = metadata.path("start").asLong();
        long end = metadata.path("end").isNull() ? start : metadata.path("end").asLong();
        String rawQuery = "what=" + metadata.path("what").asText() + "&where=" + metadata.path("where").asText()
                + "&start=" + start + "&end=" + (end + 1);
        APIGatewayV2HTTPResponse response = query.handleRequest(PipelineHarness.filesQuery(rawQuery), null);
        assertEquals(200, response.getStatusCode(), response.getBody());
        JsonNode found = null;
        for (JsonNode record : PipelineHarness.parse(response.getBody()).path("records")) {
            if (record.path("url").asText().equals(url)) {
                found = record;
            }
        }
        assertTrue(found != null, name + ": " + url + " not found by " + rawQuery + ": " + response.getBody());
        JsonNode served = found.path("metadata");
        metadata.fieldNames().forEachRemaining(field -> assertEquals(metadata.get(field), served.get(field),
                name + ": metadata field " + field + " of " + url + " served as written"));
    }
}
