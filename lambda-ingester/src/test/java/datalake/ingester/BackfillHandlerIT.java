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
import datalake.dynamodb.ObjectEntry;
import datalake.emulators.Deployment;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.lambda.Environment;
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
 * events/ingester/batch/s3-batch-v2.json, keys URL-encoded as manifests hold them), against moto and
 * DynamoDB Local, configured as template.yaml configures it.
 */
@ExtendWith(EmulatorsExtension.class)
class BackfillHandlerIT {
    private static final Emulators AWS = Emulators.shared();

    @Test
    void eachTaskOfTheManifestIsFollowedAndAnsweredWithItsResultCode() {
        try (IngesterHarness s = IngesterHarness.create(AWS, "batch-operations", Deployment.Options.defaults())) {
            // given objects already in the bucket: two datalake files (one with '+' and a space in its key),
            // one without metadata, one with invalid metadata, and a key listed in the manifest but gone
            Map<String, String> objects = new LinkedHashMap<>();
            objects.put("2024/05/14/plain.log", metadata("plain", START, START + DAY));
            objects.put("2024/05/14/c++ notes (v2).log", metadata("notes", START + 1, null));
            objects.put("2024/05/14/no-metadata.bin", null);
            objects.put("2024/05/14/invalid.log", metadata("syslog", "Bad Where", "bad", START, null, null));
            objects.forEach(s::put);
            s.receive(objects.size()).forEach(m -> s.backend.sqs().deleteMessage(
                    r -> r.queueUrl(s.deployment.ingestQueueUrl()).receiptHandle(m.receiptHandle())));
            List<String> keys = new ArrayList<>(objects.keySet());
            keys.add("2024/05/14/gone.log");

            // and the event S3 Batch Operations sends for them
            S3BatchEventV2 event = EventLoader.loadS3BatchEventV2("events/batch/s3-batch-v2.json");
            S3BatchEventV2.Task template = event.getTasks().get(0);
            List<S3BatchEventV2.Task> tasks = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                tasks.add(new S3BatchEventV2.Task("task-" + i, URLEncoder.encode(keys.get(i), StandardCharsets.UTF_8),
                        template.getS3VersionId(), s.bucket()));
            }
            event.setTasks(tasks);

            // when the function handles it
            Map<String, String> env = new HashMap<>(s.deployment.environment());
            env.putAll(s.backend.endpointEnvironment());
            env.remove("DATALAKE_DLQ_URL");
            env.remove("DATALAKE_REPORT_TOPIC_ARN");
            IngesterConfig config = IngesterConfig.forBackfill(Environment.of(env));
            S3BatchResponse response;
            try (Ingester ingester = Ingester.forAws(config, new IngesterClients(s.backend.s3(), s.backend.dynamoDb(),
                    null, null)).telemetry(Telemetry.discarding()).build()) {
                response = new BackfillHandler(ingester, Clock.systemUTC()).handleRequest(event, null);
            }

            // then the answer follows the schema, one result per task
            assertEquals("2.0", response.getInvocationSchemaVersion());
            assertEquals(event.getInvocationId(), response.getInvocationId());
            assertEquals(ResultCode.PermanentFailure, response.getTreatMissingKeysAs());
            Map<String, S3BatchResponse.Result> results = new HashMap<>();
            response.getResults().forEach(r -> results.put(r.getTaskId(), r));
            assertEquals(keys.size(), results.size());
            assertEquals(ResultCode.Succeeded, results.get("task-0").getResultCode());
            assertEquals(ResultCode.Succeeded, results.get("task-1").getResultCode());
            assertEquals(ResultCode.Succeeded, results.get("task-2").getResultCode());
            assertTrue(results.get("task-2").getResultString().contains("no datalake metadata"));
            assertEquals(ResultCode.PermanentFailure, results.get("task-3").getResultCode());
            assertTrue(results.get("task-3").getResultString().startsWith("InvalidMetadata"));
            assertEquals(ResultCode.Succeeded, results.get("task-4").getResultCode());
            assertTrue(results.get("task-4").getResultString().contains("not in the bucket"));
            // and the index holds the two files, with their per-object entries, and the latest table
            assertEquals(3, s.records().size());
            assertEquals(2, s.recordsOf("2024/05/14/plain.log").size());
            assertEquals(ObjectEntry.State.INDEXED, s.objectEntry("2024/05/14/c++ notes (v2).log").state());
            assertEquals("notes", s.latest("syslog", "webserver02").metadata().id());
        }
    }

    @Test
    void aTransientFailureIsATemporaryFailureThatBatchOperationsRetries() {
        try (IngesterHarness s = IngesterHarness.create(AWS, "batch-operations-retry", Deployment.Options.defaults())) {
            s.put("f.log", metadata("f", START, null));
            FaultInjector faults = new FaultInjector();
            faults.fail("UpdateItem");
            Map<String, String> env = new HashMap<>(s.deployment.environment());
            env.putAll(s.backend.endpointEnvironment());
            IngesterConfig config = IngesterConfig.forBackfill(Environment.of(env));
            var dynamoDb = AWS.dynamoDbClients().build(software.amazon.awssdk.services.dynamodb.DynamoDbClient.builder(),
                    o -> o.addExecutionInterceptor(faults));
            S3BatchEventV2 event = EventLoader.loadS3BatchEventV2("events/batch/s3-batch-v2.json");
            event.setTasks(List.of(new S3BatchEventV2.Task("t", "f.log", null, s.bucket())));

            S3BatchResponse response;
            try (Ingester ingester = Ingester.forAws(config, new IngesterClients(s.backend.s3(), dynamoDb, null, null))
                    .telemetry(Telemetry.discarding()).build()) {
                response = new BackfillHandler(ingester, Clock.systemUTC()).handleRequest(event, null);
            }

            assertEquals(ResultCode.TemporaryFailure, response.getResults().get(0).getResultCode());
            assertEquals(List.of(), s.records());
            dynamoDb.close();
        }
    }
}
