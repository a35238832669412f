package datalake.ingester;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import datalake.records.RecordFactory;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The sample invocations in events/ingester/invoke (for {@code sam local invoke IngesterFunction -e ...})
 * are real ones: each is accepted by the handler and yields the records its shape promises.
 */
class InvocationEventsTest {
    private static final String METADATA = "{\"version\":0,\"start\":1715679064000,\"end\":null,\"path\":\"/data/x.csv\","
            + "\"work_id\":null,\"where\":\"sensor-1\",\"what\":\"readings\",\"id\":\"%s\","
            + "\"hash\":\"a3e75ee4f45f676422e038f2c116d000\"}";

    @ParameterizedTest
    @CsvSource({
        "s3-put.json, 1",
        "sns-envelope-put.json, 1",
        "sns-raw-put.json, 1",
        "eventbridge-object-created.json, 1",
        "s3-test-event.json, 0",
    })
    void eachSampleIsAcceptedWithTheRecordsOfItsShape(String sample, int records) {
        // Every object the sample names exists, with valid metadata.
        ObjectStore anyObject = new ObjectStore() {
            @Override
            public Optional<StoredObject> head(String bucket, String key) {
                return Optional.of(new StoredObject(String.format(METADATA, "f" + Math.abs(key.hashCode())),
                        1_715_679_064_118L, 42));
            }

            @Override
            public boolean bucketExists(String bucket) {
                return true;
            }
        };
        Fakes.Records table = new Fakes.Records(false);
        Fakes.Reports reports = new Fakes.Reports();
        Clock clock = Clock.fixed(Instant.ofEpochMilli(1_715_679_065_000L), ZoneOffset.UTC);
        SQSEvent event = EventLoader.loadSQSEvent("events/invoke/" + sample);

        SQSBatchResponse response;
        try (Ingester ingester = Ingester.builder()
                .recordFactory(new RecordFactory())
                .objects(anyObject)
                .records(table)
                .index(table)
                .latest(table.latestTable())
                .reports(reports)
                .deadLetters(new Fakes.DeadLetters())
                .telemetry(new Telemetry(line -> { }, clock))
                .clock(clock)
                .functionName("events-test")
                .concurrency(2)
                .build()) {
            response = new IngesterHandler(ingester, clock).handleRequest(event, null);
        }

        assertTrue(response.getBatchItemFailures().isEmpty(), sample + " is accepted");
        assertEquals(records, table.table.size(), sample + " yields its records");
        assertEquals(1, reports.published.size(), "one report for the one message");
        assertEquals("success", reports.published.get(0).report().status().json());
    }
}
