package datalake.ingester;

import datalake.dynamodb.RecordItems;
import datalake.records.Record;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * {@link RecordStore} on DynamoDB. Records go out with BatchWriteItem, 25 a request; the
 * UnprocessedItems a throttled table hands back are retried with exponential backoff and full
 * jitter until the deadline, and whatever is still unwritten then fails with
 * {@link ErrorKind#TIME_BUDGET} (transient: SQS redelivers the message). The latest table is kept
 * with a conditional PutItem.
 */
public final class DynamoDbRecordStore implements RecordStore {
    /** BatchWriteItem's limit of write requests per call. */
    static final int MAX_BATCH = 25;
    /** An older file never replaces a newer one: greater start wins, then greater create_time. */
    static final String LATEST_CONDITION = "attribute_not_exists(#key) OR #metadata.#start < :start"
            + " OR (#metadata.#start = :start AND #create_time < :create_time)";
    private static final Map<String, String> LATEST_NAMES = Map.of(
            "#key", RecordItems.WHAT_WHERE_KEY,
            "#metadata", RecordItems.METADATA,
            "#start", "start",
            "#create_time", RecordItems.CREATE_TIME);

    private final DynamoDbClient dynamoDb;
    private final String table;
    private final String latestTable;
    private final Backoff backoff;

    /**
     * @param table       the records table
     * @param latestTable the latest table, or null to keep none
     */
    public DynamoDbRecordStore(DynamoDbClient dynamoDb, String table, String latestTable, Backoff backoff) {
        this.dynamoDb = dynamoDb;
        this.table = table;
        this.latestTable = latestTable;
        this.backoff = backoff;
    }

    /** The BatchWriteItem entry of a record (pure; the translation benchmark measures it). */
    static WriteRequest writeRequest(Record record) {
        return WriteRequest.builder().putRequest(PutRequest.builder().item(RecordItems.toItem(record)).build()).build();
    }

    @Override
    public Map<Record, Failure> write(List<Record> records, Deadline deadline) {
        Map<String, Record> byKey = new HashMap<>(records.size() * 2);
        ArrayDeque<WriteRequest> pending = new ArrayDeque<>(records.size());
        for (Record record : records) {
            WriteRequest request = writeRequest(record);
            if (byKey.put(key(request.putRequest().item()), record) != null) {
                throw new IllegalArgumentException("two records with the same key in one write");
            }
            pending.add(request);
        }
        Map<Record, Failure> failed = new HashMap<>();
        int retry = 0;
        while (!pending.isEmpty()) {
            if (deadline.passed()) {
                failAll(pending, byKey, failed, budgetSpent(pending.size()));
                break;
            }
            List<WriteRequest> batch = new ArrayList<>(MAX_BATCH);
            while (batch.size() < MAX_BATCH && !pending.isEmpty()) {
                batch.add(pending.poll());
            }
            List<WriteRequest> unprocessed;
            try {
                BatchWriteItemResponse response = dynamoDb.batchWriteItem(r -> r.requestItems(Map.of(table, batch)));
                unprocessed = response.hasUnprocessedItems()
                        ? response.unprocessedItems().getOrDefault(table, List.of()) : List.of();
            } catch (RuntimeException e) {
                // The SDK has already retried what it deems retryable; these records fail, the rest go on.
                failAll(batch, byKey, failed, Failures.classify(e, null));
                continue;
            }
            if (unprocessed.isEmpty()) {
                retry = 0;
                continue;
            }
            pending.addAll(unprocessed);
            Duration delay = backoff.delay(++retry);
            if (delay.toMillis() >= deadline.remainingMillis()) {
                failAll(pending, byKey, failed, budgetSpent(pending.size()));
                break;
            }
            try {
                backoff.sleeper().sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failAll(pending, byKey, failed, budgetSpent(pending.size()));
                break;
            }
        }
        return failed;
    }

    @Override
    public boolean keepsLatest() {
        return latestTable != null;
    }

    @Override
    public boolean offerLatest(Record record) {
        if (latestTable == null) {
            throw new IllegalStateException("no latest table is configured");
        }
        Map<String, AttributeValue> values = Map.of(
                ":start", AttributeValue.fromN(Long.toString(record.metadata().start())),
                ":create_time", AttributeValue.fromN(Long.toString(record.createTime())));
        try {
            dynamoDb.putItem(r -> r.tableName(latestTable)
                    .item(RecordItems.toLatestItem(record))
                    .conditionExpression(LATEST_CONDITION)
                    .expressionAttributeNames(LATEST_NAMES)
                    .expressionAttributeValues(values));
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    private static Failure budgetSpent(int unwritten) {
        return new Failure(ErrorKind.TIME_BUDGET, "DynamoDB still left " + unwritten
                + " writes unprocessed (throttling) when the invocation's time budget ran out.");
    }

    private static void failAll(Iterable<WriteRequest> requests, Map<String, Record> byKey,
            Map<Record, Failure> failed, Failure failure) {
        for (WriteRequest request : requests) {
            Record record = byKey.get(key(request.putRequest().item()));
            if (record != null) {
                failed.put(record, failure);
            }
        }
    }

    private static String key(Map<String, AttributeValue> item) {
        return item.get(RecordItems.TIME_INDEX_KEY).s() + '\n' + item.get(RecordItems.RANGE_KEY).s();
    }
}
