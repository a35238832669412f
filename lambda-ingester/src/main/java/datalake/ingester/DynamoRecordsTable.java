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
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * {@link RecordsTable} on DynamoDB. Records go out with BatchWriteItem, 25 a request; the
 * UnprocessedItems a throttled table hands back are retried with exponential backoff and full
 * jitter until the deadline, and whatever is still unwritten then fails with
 * {@link ErrorKind#TIME_BUDGET} (transient: SQS redelivers the message).
 */
public record DynamoRecordsTable(DynamoDbClient dynamoDb, String table, Backoff backoff) implements RecordsTable {
    /** BatchWriteItem's limit of write requests per call. */
    static final int MAX_BATCH = 25;

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
