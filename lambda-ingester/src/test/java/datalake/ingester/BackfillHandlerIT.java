package datalake.ingester;

import static datalake.ingester.TestFiles.DAY;
import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.S3BatchEventV2;
import com.amazonaws.services.lambda.runtime.events.S3BatchResponse;
import com.amazonaws.services.lambda.runtime.events.S3BatchResponse.ResultCode;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import datalake.dynamodb.ObjectEntry;
import datalake.emulators.AwsEndpoints;
import datalake.emulators.DatalakeStack;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The backfill function on the event S3 Batch Operations sends (invocation schema 2.0, the shape of
 * events/ingester/batch/s3-batch-v2.json, keys URL-encoded as manifests hold them), as JSON in and JSON
 * out through its stream handler, against moto and dynalite, configured as template.yaml configures it.
 */
@ExtendWith(EmulatorsExtension.class)
class BackfillHandlerIT {
    private static final Emulators AWS = Emulators.shared();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void eachTaskOfTheManifestIsFollowedAndAnsweredWithItsResultCode() throws Exception {
        try (IngesterHarness s = IngesterHarness.create(AWS, "batch-operations")) {
            // given objects already in the bucket: two datalake files (one with '+' and a space in its key),
            // one without metadata, one with invalid metadata, and a key listed in the manifest but gone
            Map<String, String> objects = new LinkedHashMap<>();
            objects.put("2024/05/14/plain.log", metadata("plain", START, START + DAY));
            objects.put("2024/05/14/c++ notes (v2).log", metadata("notes", START + 1, null));
            objects.put("2024/05/14/no-metadata.bin", null);
            objects.put("2024/05/14/invalid.log", metadata("syslog", "Bad Where", "bad", START, null, null));
            objects.forEach(s::put);
            s.receive(objects.size()).forEach(m -> s.backend.sqs().deleteMessage(
                    r -> r.queueUrl(s.stack.ingestQueueUrl()).receiptHandle(m.receiptHandle())));
            List<String> keys = new ArrayList<>(objects.keySet());
            keys.add("2024/05/14/gone.log");

            // and the event S3 Batch Operations sends for them (the fixture's shape, these tasks)
            ObjectNode event = (ObjectNode) JSON.readTree(TestFiles.event("batch/s3-batch-v2.json"));
            ArrayNode tasks = event.putArray("tasks");
            for (int i = 0; i < keys.size(); i++) {
                tasks.addObject().put("taskId", "task-" + i)
                        .put("s3Key", URLEncoder.encode(keys.get(i), StandardCharsets.UTF_8))
                        .putNull("s3VersionId").put("s3Bucket", s.bucket());
            }

            // when the function handles it
            IngesterConfig config = s.backfillConfig();
            AwsEndpoints backfill = s.stack.endpointsOf(DatalakeStack.BACKFILL);
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            try (Ingester ingester = Ingester.forAws(config, new IngesterClients(backfill.s3(), backfill.dynamoDb(),
                    null, null)).telemetry(Telemetry.discarding()).build()) {
                new BackfillHandler(ingester, Clock.systemUTC()).handleRequest(
                        new ByteArrayInputStream(JSON.writeValueAsBytes(event)), answer, null);
            }

            // then the answer is the JSON Batch Operations reads: the schema, one result per task
            JsonNode response = JSON.readTree(answer.toByteArray());
            assertEquals("2.0", response.path("invocationSchemaVersion").asText());
            assertEquals(event.path("invocationId").asText(), response.path("invocationId").asText());
            assertEquals("PermanentFailure", response.path("treatMissingKeysAs").asText());
            Map<String, JsonNode> results = new HashMap<>();
            response.path("results").forEach(r -> results.put(r.path("taskId").asText(), r));
            assertEquals(keys.size(), results.size());
            assertEquals("Succeeded", results.get("task-0").path("resultCode").asText());
            assertEquals("Succeeded", results.get("task-1").path("resultCode").asText());
            assertEquals("Succeeded", results.get("task-2").path("resultCode").asText());
            assertTrue(results.get("task-2").path("resultString").asText().contains("no datalake metadata"));
            assertEquals("PermanentFailure", results.get("task-3").path("resultCode").asText());
            assertTrue(results.get("task-3").path("resultString").asText().startsWith("InvalidMetadata"));
            assertEquals("Succeeded", results.get("task-4").path("resultCode").asText());
            assertTrue(results.get("task-4").path("resultString").asText().contains("not in the bucket"));
            // and the index holds the two files, with their per-object entries, and the latest table
            assertEquals(3, s.records().size());
            assertEquals(2, s.recordsOf("2024/05/14/plain.log").size());
            assertEquals(ObjectEntry.State.INDEXED, s.objectEntry("2024/05/14/c++ notes (v2).log").state());
            assertEquals("notes", s.latest("syslog", "webserver02").metadata().id());
        }
    }

    @Test
    void aTransientFailureIsATemporaryFailureThatBatchOperationsRetries() {
        try (IngesterHarness s = IngesterHarness.create(AWS, "batch-operations-retry")) {
            s.put("f.log", metadata("f", START, null));
            FaultInjector faults = new FaultInjector();
            faults.fail("UpdateItem");
            IngesterConfig config = s.backfillConfig();
            AwsEndpoints backfill = s.stack.endpointsOf(DatalakeStack.BACKFILL);
            var dynamoDb = backfill.dynamoDbClients().build(software.amazon.awssdk.services.dynamodb.DynamoDbClient.builder(),
                    o -> o.addExecutionInterceptor(faults));
            S3BatchEventV2 event = EventLoader.loadS3BatchEventV2("events/batch/s3-batch-v2.json");
            event.setTasks(List.of(new S3BatchEventV2.Task("t", "f.log", null, s.bucket())));

            S3BatchResponse response;
            try (Ingester ingester = Ingester.forAws(config, new IngesterClients(backfill.s3(), dynamoDb, null, null))
                    .telemetry(Telemetry.discarding()).build()) {
                response = new BackfillHandler(ingester, Clock.systemUTC()).handle(event, null);
            }

            assertEquals(ResultCode.TemporaryFailure, response.getResults().get(0).getResultCode());
            assertEquals(List.of(), s.records());
            dynamoDb.close();
        }
    }
}
