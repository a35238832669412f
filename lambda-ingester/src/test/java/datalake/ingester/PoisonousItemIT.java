package datalake.ingester;

import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.emulators.Deployment;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.emulators.TableSchemas;
import datalake.ingester.IngesterHarness.ReceivedReport;
import datalake.records.MetadataParser;
import datalake.records.Record;
import datalake.records.RecordFactory;
import datalake.records.StatusReport;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * One bad item never fails its neighbours, against DynamoDB Local, which rejects a whole BatchWriteItem
 * for one item over a limit (ValidationException) exactly as DynamoDB does.
 */
@ExtendWith(EmulatorsExtension.class)
class PoisonousItemIT {
    private static final Emulators AWS = Emulators.shared();
    private final List<IngesterHarness> stacks = new ArrayList<>();

    @AfterEach
    void close() {
        stacks.forEach(IngesterHarness::close);
    }

    @Test
    void aBatchOfGoodMessagesAndOnePoisonousOneIndexesTheGoodAndDeadLettersThePoison() {
        // given nine uploads and one whose range key (<where>:<id>) is over DynamoDB's 1,024 bytes
        IngesterHarness s = IngesterHarness.create(AWS, "poison", Deployment.Options.defaults());
        stacks.add(s);
        for (int i = 0; i < 9; i++) {
            s.put("good-" + i + ".log", metadata("good" + i, START + i, null));
        }
        String longWhere = "w".repeat(1_100);
        s.put("poison.log", metadata("syslog", longWhere, "poison", START, null, null));
        List<Message> batch = s.receive(10);

        // when the ten are handled in one batch
        Set<String> retried = s.handle(batch);

        // then nothing comes back; the nine are indexed and reported; the poison is dead-lettered and reported
        assertEquals(Set.of(), retried);
        assertEquals(9, s.records().size());
        List<Message> letters = s.deadLetters(1);
        assertEquals("ItemRejected", letters.get(0).messageAttributes().get("error_kind").stringValue());
        assertTrue(letters.get(0).messageAttributes().get("error_message").stringValue().contains("poison.log"));
        List<ReceivedReport> reports = s.reports(10);
        assertEquals(9, reports.stream().filter(r -> r.report().status() == StatusReport.Status.SUCCESS).count());
        assertEquals(1, reports.stream().filter(r -> r.report().status() == StatusReport.Status.ERROR).count());
        s.assertEmpty(s.deployment.deadLetterQueueUrl());
    }

    @Test
    void anItemOverFourHundredKilobytesFailsAloneInAWriteOfTwentyFive() {
        // given a table and 24 records, plus one whose item is over DynamoDB's 400 KB
        DynamoDbClient dynamoDb = AWS.dynamoDb();
        String table = "poison-" + UUID.randomUUID();
        dynamoDb.createTable(TableSchemas.recordsTable(table));
        RecordFactory factory = new RecordFactory();
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            records.addAll(factory.records(MetadataParser.parse(metadata("f" + i, START, null)), "s3://b/f" + i, 1L, 1));
        }
        Record huge = factory.records(MetadataParser.parse(metadata("huge", START, null)),
                "s3://b/" + "k".repeat(410_000), 1L, 1).get(0);
        records.add(12, huge);

        // when
        Map<Record, Failure> failed = new DynamoRecordsTable(dynamoDb, table, Backoff.standard())
                .write(records, Deadline.after(Clock.systemUTC(), Duration.ofSeconds(20)));

        // then
        assertEquals(List.of("huge"), failed.keySet().stream().map(r -> r.metadata().id()).toList());
        assertEquals(ErrorKind.ITEM_REJECTED, failed.values().iterator().next().kind());
        assertEquals(24, dynamoDb.scan(r -> r.tableName(table)).count());
    }
}
