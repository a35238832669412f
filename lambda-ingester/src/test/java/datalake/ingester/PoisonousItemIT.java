package datalake.ingester;

import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.dynamodb.RecordItems;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.emulators.DatalakeStack;
import datalake.ingester.IngesterHarness.ReceivedReport;
import datalake.records.MetadataParser;
import datalake.records.Record;
import datalake.records.RecordFactory;
import datalake.records.StatusReport;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * One bad item never fails its neighbours, against dynalite, which rejects a whole BatchWriteItem
 * for one item over a limit (ValidationException) exactly as DynamoDB does.
 *
 * <p>No valid upload makes such an item any more: the metadata limits (MetadataRules, IngesterLimitsIT)
 * keep every key within DynamoDB's, and a record holds its metadata (at most S3's 2 KB of user metadata)
 * and its URL (an S3 key is at most 1,024 bytes), far below the 400 KB of an item. So the end-to-end test
 * makes the poison on the way: an SDK interceptor grows the poison's records past 400 KB in the
 * BatchWriteItem request, and dynalite's own rejection takes the path a real one would.
 */
@ExtendWith(EmulatorsExtension.class)
class PoisonousItemIT {
    private static final Emulators AWS = Emulators.shared();
    private final List<IngesterHarness> stacks = new ArrayList<>();

    @AfterEach
    void close() {
        stacks.forEach(IngesterHarness::close);
    }

    /** Grows every record of one URL past DynamoDB's 400 KB in BatchWriteItem requests, keys untouched. */
    private static final class PoisonRecords implements ExecutionInterceptor {
        private static final AttributeValue PADDING = AttributeValue.fromS("p".repeat(410_000));
        private final String url;
        final AtomicInteger grown = new AtomicInteger();

        PoisonRecords(String url) {
            this.url = url;
        }

        @Override
        public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
            if (!(context.request() instanceof BatchWriteItemRequest request)) {
                return context.request();
            }
            Map<String, List<WriteRequest>> items = new HashMap<>();
            request.requestItems().forEach((table, writes) -> items.put(table, writes.stream().map(this::grow).toList()));
            return request.toBuilder().requestItems(items).build();
        }

        private WriteRequest grow(WriteRequest write) {
            Map<String, AttributeValue> item = write.putRequest() == null ? null : write.putRequest().item();
            if (item == null || item.get(RecordItems.URL) == null || !url.equals(item.get(RecordItems.URL).s())) {
                return write;
            }
            grown.incrementAndGet();
            Map<String, AttributeValue> poisoned = new HashMap<>(item);
            poisoned.put("padding", PADDING);
            return WriteRequest.builder().putRequest(PutRequest.builder().item(poisoned).build()).build();
        }
    }

    @Test
    void aBatchOfGoodMessagesAndOnePoisonousOneIndexesTheGoodAndDeadLettersThePoison() {
        // given nine uploads and one whose records DynamoDB rejects (grown past 400 KB on the way; see the class)
        IngesterHarness s = IngesterHarness.create(AWS, "poison");
        stacks.add(s);
        for (int i = 0; i < 9; i++) {
            s.put("good-" + i + ".log", metadata("good" + i, START + i, null));
        }
        s.put("poison.log", metadata("poison", START, null));
        PoisonRecords poison = new PoisonRecords(s.url("poison.log"));
        DynamoDbClient dynamoDb = AWS.dynamoDbClients().build(DynamoDbClient.builder(),
                o -> o.addExecutionInterceptor(poison));
        List<Message> batch = s.receive(10);

        // when the ten are handled in one batch
        Set<String> retried = s.handle(s.handler(s.config(), dynamoDb), batch);

        // then nothing comes back; the nine are indexed and reported; the poison is dead-lettered and reported
        assertTrue(poison.grown.get() > 0, "the poison's record never went to DynamoDB");
        assertEquals(Set.of(), retried);
        assertEquals(9, s.records().size());
        List<Message> letters = s.deadLetters(1);
        assertEquals("ItemRejected", letters.get(0).messageAttributes().get("error_kind").stringValue());
        assertTrue(letters.get(0).messageAttributes().get("error_message").stringValue().contains("poison.log"));
        List<ReceivedReport> reports = s.reports(10);
        assertEquals(9, reports.stream().filter(r -> r.report().status() == StatusReport.Status.SUCCESS).count());
        assertEquals(1, reports.stream().filter(r -> r.report().status() == StatusReport.Status.ERROR).count());
        s.assertEmpty(s.stack.deadLetterQueueUrl());
        dynamoDb.close();
    }

    @Test
    void anItemOverFourHundredKilobytesFailsAloneInAWriteOfTwentyFive() {
        // given a table and 24 records, plus one whose item is over DynamoDB's 400 KB
        DynamoDbClient dynamoDb = AWS.dynamoDb();
        String table = DatalakeStack.builder(AWS).prefix(DatalakeStack.uniquePrefix("poison")).tablesOnly().build()
                .recordsTable();
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
