package datalake.ingester;

import static datalake.ingester.TestFiles.DAY;
import static datalake.ingester.TestFiles.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.dynamodb.RecordItems;
import datalake.records.MetadataParser;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** The DynamoDB records and latest tables on a fake client that records the requests. */
class DynamoTablesTest {
    private static final String TABLE = "records";
    private final FakeClock clock = new FakeClock();
    private final FakeDynamoDb dynamoDb = new FakeDynamoDb();
    private final List<Duration> sleeps = new ArrayList<>();
    /** Always the longest delay full jitter allows, so the arithmetic of the test is exact. */
    private final RandomGenerator longest = new RandomGenerator() {
        @Override
        public long nextLong() {
            return 0;
        }

        @Override
        public long nextLong(long bound) {
            return bound - 1;
        }
    };
    private final DynamoLatestTable latest = new DynamoLatestTable(dynamoDb, "latest");
    private final DynamoRecordsTable store = new DynamoRecordsTable(dynamoDb, TABLE,
            new Backoff(Duration.ofMillis(50), Duration.ofSeconds(2), d -> {
                sleeps.add(d);
                clock.advance(d);
            }, longest));

    /** Records of {@code files} one-day files: two records each. */
    private static List<Record> records(int files) {
        List<Record> records = new ArrayList<>();
        RecordFactory factory = new RecordFactory();
        for (int i = 0; i < files; i++) {
            records.addAll(factory.records(MetadataParser.parse(TestFiles.metadata("f" + i, START, START + DAY)),
                    "s3://b/f" + i, 1000L + i, 10));
        }
        return records;
    }

    @Test
    void writesTwentyFiveAtATimeWithNoKeyTwiceInARequest() {
        // given 60 records
        List<Record> records = records(30);

        // when
        Map<Record, Failure> failed = store.write(records, Deadline.after(clock, Duration.ofSeconds(10)));

        // then
        assertTrue(failed.isEmpty());
        assertEquals(List.of(25, 25, 10), dynamoDb.batches.stream().map(List::size).toList());
        for (List<WriteRequest> batch : dynamoDb.batches) {
            Set<String> keys = new HashSet<>();
            batch.forEach(w -> assertTrue(keys.add(FakeDynamoDb.key(w.putRequest().item()))));
        }
        assertEquals(60, dynamoDb.table.size());
        assertEquals(List.of(), sleeps);
    }

    @Test
    void unprocessedItemsAreRetriedWithGrowingJitteredDelays() {
        // given a table that leaves all but one item unprocessed, three calls in a row
        dynamoDb.unprocessed = batch -> dynamoDb.batches.size() <= 3 ? batch.subList(1, batch.size()) : List.of();
        List<Record> records = records(2);

        // when
        Map<Record, Failure> failed = store.write(records, Deadline.after(clock, Duration.ofSeconds(10)));

        // then everything got in, after waits of at most 50, 100 and 200 ms
        assertTrue(failed.isEmpty());
        assertEquals(4, dynamoDb.table.size());
        assertEquals(List.of(Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(200)), sleeps);
    }

    @Test
    void whatIsStillUnprocessedWhenTheBudgetRunsOutFailsAsTimeBudget() {
        // given a table that never takes the records of f1
        dynamoDb.unprocessed = batch -> batch.stream()
                .filter(w -> w.putRequest().item().get(RecordItems.RANGE_KEY).s().endsWith(":f1")).toList();
        List<Record> records = records(3);

        // when
        Map<Record, Failure> failed = store.write(records, Deadline.after(clock, Duration.ofSeconds(3)));

        // then only f1's two records failed, transiently, and the waits stayed inside the budget
        assertEquals(Set.of("f1"), failed.keySet().stream().map(r -> r.metadata().id()).collect(java.util.stream.Collectors.toSet()));
        assertEquals(2, failed.size());
        failed.values().forEach(f -> assertEquals(ErrorKind.TIME_BUDGET, f.kind()));
        assertEquals(4, dynamoDb.table.size());
        long slept = sleeps.stream().mapToLong(Duration::toMillis).sum();
        assertTrue(slept < 3000, "slept " + slept + " ms");
        assertTrue(sleeps.size() >= 4, "gave up after " + sleeps.size() + " retries");
    }

    @Test
    void aFailingCallFailsItsRecordsAndTheOthersGoOn() {
        // given DynamoDB failing the first call (after the SDK's own retries)
        dynamoDb.failure = batchNumber -> batchNumber == 1 ? DynamoDbException.builder().statusCode(500)
                .awsErrorDetails(AwsErrorDetails.builder().serviceName("DynamoDb").errorCode("InternalServerError").build())
                .build() : null;
        List<Record> records = records(15);

        // when
        Map<Record, Failure> failed = store.write(records, Deadline.after(clock, Duration.ofSeconds(10)));

        // then
        assertEquals(25, failed.size());
        failed.values().forEach(f -> assertEquals(ErrorKind.SERVICE_ERROR, f.kind()));
        assertEquals(5, dynamoDb.table.size());
    }

    private static RuntimeException validation(String message) {
        return DynamoDbException.builder().statusCode(400).message(message)
                .awsErrorDetails(AwsErrorDetails.builder().serviceName("DynamoDb").errorCode("ValidationException")
                        .errorMessage(message).build())
                .build();
    }

    private static boolean holds(List<WriteRequest> batch, String id) {
        return batch.stream().anyMatch(w -> w.putRequest().item().get(RecordItems.RANGE_KEY).s().endsWith(":" + id));
    }

    @Test
    void anItemDynamoDbRejectsFailsAloneAndItsNeighboursAreWritten() {
        // given 24 records and one DynamoDB refuses for its size: it fails every request that holds it
        dynamoDb.rejects = batch -> holds(batch, "f7")
                ? validation("Item size has exceeded the maximum allowed size") : null;
        List<Record> records = records(12).subList(0, 23);
        List<Record> all = new ArrayList<>(records);
        all.addAll(records(13).subList(24, 26));

        // when
        Map<Record, Failure> failed = store.write(all, Deadline.after(clock, Duration.ofSeconds(10)));

        // then only f7's two records failed, permanently, named; the 23 others are in the table
        assertEquals(Set.of("f7"), failed.keySet().stream().map(r -> r.metadata().id()).collect(java.util.stream.Collectors.toSet()));
        failed.values().forEach(f -> {
            assertEquals(ErrorKind.ITEM_REJECTED, f.kind());
            assertTrue(f.permanent());
            assertTrue(f.message().contains("s3://b/f7") && f.message().contains("maximum allowed size"), f.message());
        });
        assertEquals(23, dynamoDb.table.size());
        // halving the rejected request: log2(25) rounds or so, not one request per item
        assertTrue(dynamoDb.batches.size() <= 16, dynamoDb.batches.size() + " requests");
    }

    @Test
    void aRejectionOfEveryItemThatNamesNoSizeIsTheTablesFaultAndTransient() {
        // given a table whose key schema is not the records' (every item refused)
        dynamoDb.rejects = batch -> validation("One or more parameter values were invalid: Missing the key pk in the item");

        Map<Record, Failure> failed = store.write(records(3), Deadline.after(clock, Duration.ofSeconds(10)));

        assertEquals(6, failed.size());
        failed.values().forEach(f -> assertEquals(ErrorKind.AWS_ERROR, f.kind()));
        assertTrue(dynamoDb.table.isEmpty());
    }

    @Test
    void aPassedDeadlineWritesNothing() {
        Deadline passed = Deadline.after(clock, Duration.ZERO);

        Map<Record, Failure> failed = store.write(records(1), passed);

        assertEquals(2, failed.size());
        assertTrue(dynamoDb.batches.isEmpty());
    }

    @Test
    void twoRecordsWithOneKeyAreADefect() {
        List<Record> twice = new ArrayList<>(records(1));
        twice.add(twice.get(0));

        assertThrows(IllegalArgumentException.class, () -> store.write(twice, Deadline.after(clock, Duration.ofSeconds(1))));
    }

    @Test
    void theLatestTableIsWrittenWithAConditionThatKeepsNewerFiles() {
        Record record = records(1).get(0);

        boolean stored = latest.offer(record);

        assertTrue(stored);
        PutItemRequest put = dynamoDb.puts.get(0);
        assertEquals("latest", put.tableName());
        assertEquals("syslog:webserver02", put.item().get(RecordItems.WHAT_WHERE_KEY).s());
        assertEquals(DynamoLatestTable.CONDITION, put.conditionExpression());
        assertEquals(Long.toString(START), put.expressionAttributeValues().get(":start").n());
        assertEquals("1000", put.expressionAttributeValues().get(":create_time").n());
    }

    @Test
    void aFailedConditionIsNotAnError() {
        dynamoDb.conditionFails = true;

        assertFalse(latest.offer(records(1).get(0)));
        assertEquals(1, dynamoDb.puts.size(), "the entry that won, a number start, was returned: no second put");
    }

    @Test
    void readsOfPerObjectItemsLeftUnprocessedBackOffNoFurtherThanTheDeadline() {
        // given a table that leaves every read of a per-object item unprocessed (throttling), and 1 s left
        DynamoDbClient throttled = new DynamoDbClient() {
            @Override
            public BatchGetItemResponse batchGetItem(BatchGetItemRequest request) {
                return BatchGetItemResponse.builder().responses(Map.of())
                        .unprocessedKeys(request.requestItems()).build();
            }

            @Override
            public String serviceName() {
                return "dynamodb";
            }

            @Override
            public void close() {
            }
        };
        DynamoObjectIndex index = new DynamoObjectIndex(throttled, TABLE,
                new Backoff(Duration.ofMillis(50), Duration.ofSeconds(2), d -> {
                    sleeps.add(d);
                    clock.advance(d);
                }, longest));
        Deadline deadline = Deadline.after(clock, Duration.ofSeconds(1));

        // when the entry is read under that deadline
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> CallDeadline.within(deadline, () -> index.read(List.of("s3://b/k"))));

        // then it backed off only while the deadline stayed ahead (50, 100, 200, 400 ms; not 800 more), and
        // the object fails as TimeBudget
        assertEquals(List.of(Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(200),
                Duration.ofMillis(400)), sleeps);
        assertFalse(deadline.passed());
        assertEquals(ErrorKind.TIME_BUDGET, Failures.classify(e, "s3://b/k").kind());
    }

    /** DynamoDbClient's methods default to "unsupported"; this implements the two the store calls. */
    static final class FakeDynamoDb implements DynamoDbClient {
        final Map<String, Map<String, AttributeValue>> table = new LinkedHashMap<>();
        final List<List<WriteRequest>> batches = new ArrayList<>();
        final List<PutItemRequest> puts = new ArrayList<>();
        Function<List<WriteRequest>, List<WriteRequest>> unprocessed = batch -> List.of();
        Function<Integer, RuntimeException> failure = n -> null;
        /** A ValidationException for a request holding an item it refuses, or null. */
        Function<List<WriteRequest>, RuntimeException> rejects = batch -> null;
        boolean conditionFails;

        static String key(Map<String, AttributeValue> item) {
            return item.get(RecordItems.TIME_INDEX_KEY).s() + "|" + item.get(RecordItems.RANGE_KEY).s();
        }

        @Override
        public BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest request) {
            List<WriteRequest> batch = request.requestItems().get(TABLE);
            if (batch.size() > 25) {
                throw new AssertionError("more than 25 writes in one request");
            }
            batches.add(batch);
            RuntimeException error = failure.apply(batches.size());
            if (error == null) {
                error = rejects.apply(batch);
            }
            if (error != null) {
                throw error;
            }
            List<WriteRequest> left = unprocessed.apply(batch);
            for (WriteRequest write : batch) {
                if (!left.contains(write)) {
                    table.put(key(write.putRequest().item()), write.putRequest().item());
                }
            }
            return BatchWriteItemResponse.builder()
                    .unprocessedItems(left.isEmpty() ? Map.of() : Map.of(TABLE, left)).build();
        }

        @Override
        public PutItemResponse putItem(PutItemRequest request) {
            puts.add(request);
            if (conditionFails) {
                // as AWS does, with the entry that failed the condition when asked for it (one of ours)
                throw ConditionalCheckFailedException.builder().statusCode(400).message("The conditional request failed")
                        .item(request.returnValuesOnConditionCheckFailure() == ReturnValuesOnConditionCheckFailure.ALL_OLD
                                ? request.item() : null)
                        .build();
            }
            return PutItemResponse.builder().build();
        }

        @Override
        public String serviceName() {
            return "dynamodb";
        }

        @Override
        public void close() {
        }
    }
}
