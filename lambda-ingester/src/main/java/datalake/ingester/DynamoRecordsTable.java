package datalake.ingester;

import datalake.dynamodb.RecordItems;
import datalake.dynamodb.StoredRecord;
import datalake.dynamodb.UnreadableItemException;
import datalake.records.Keys.RangeKey;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.Record;
import datalake.records.TimeBuckets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * {@link RecordsTable} on DynamoDB. Records go out with BatchWriteItem, 25 a request; the
 * UnprocessedItems a throttled table hands back are retried with exponential backoff and full
 * jitter until the deadline, and whatever is still unwritten then fails with
 * {@link ErrorKind#TIME_BUDGET} (transient: SQS redelivers the message).
 *
 * <p>DynamoDB rejects a whole request for one bad item (a {@code ValidationException}: a key or an item
 * over its size limit). Such a request is split in halves and each half sent again, down to the one
 * item it rejects, which fails alone as {@link ErrorKind#ITEM_REJECTED} (permanent); its neighbours
 * are written. A rejection that names no size limit is permanent only if a neighbour was written:
 * when DynamoDB rejects every record of a write for another reason, the table is at fault rather
 * than the records (a wrong key schema, say), and the rejections are transient.
 */
record DynamoRecordsTable(DynamoDbClient dynamoDb, String table, Backoff backoff) implements RecordsTable {
    /** BatchWriteItem's limit of write requests per call. */
    static final int MAX_BATCH = 25;

    /** The BatchWriteItem entry of a record (pure; TranslationBenchmark measures it). */
    static WriteRequest writeRequest(Record record) {
        return WriteRequest.builder().putRequest(PutRequest.builder().item(RecordItems.toItem(record)).build()).build();
    }

    @Override
    public Map<Record, Failure> write(List<Record> records, Deadline deadline) {
        return new Write(records).run(deadline);
    }

    @Override
    public Optional<StoredRecord> newest(String where, List<TimeIndexKey> days) {
        StoredRecord best = null;
        for (TimeIndexKey day : days) {
            // A file with a record in an older bucket starts before this bucket's first millisecond.
            if (best != null && best.start() >= TimeBuckets.startOf(day.bucket() + 1)) {
                break;
            }
            String hash = day.toString();
            Map<String, AttributeValue> start = null;
            do {
                Map<String, AttributeValue> from = start;
                QueryResponse response = dynamoDb.query(r -> r.tableName(table).consistentRead(true)
                        .keyConditionExpression("#h = :h AND begins_with(#r, :r)")
                        .expressionAttributeNames(Map.of("#h", RecordItems.TIME_INDEX_KEY, "#r", RecordItems.RANGE_KEY))
                        .expressionAttributeValues(Map.of(":h", AttributeValue.fromS(hash),
                                ":r", AttributeValue.fromS(RangeKey.prefix(where))))
                        .exclusiveStartKey(from));
                for (Map<String, AttributeValue> item : response.items()) {
                    StoredRecord record;
                    try {
                        record = StoredRecord.fromItem(item);
                    } catch (UnreadableItemException unreadable) {
                        continue; // not even its keys, times and url read: no candidate for the latest table
                    }
                    if (best == null || record.isNewerThan(best) || sameFileEarlierBucket(record, best)) {
                        best = record;
                    }
                }
                start = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
                        ? response.lastEvaluatedKey() : null;
            } while (start != null);
        }
        return Optional.ofNullable(best);
    }

    /** The latest table holds a file's record of its first bucket, as the ingester offers it. */
    static boolean sameFileEarlierBucket(StoredRecord record, StoredRecord best) {
        return record.url().equals(best.url()) && Objects.equals(record.createTime(), best.createTime())
                && record.metadata().equals(best.metadata()) && record.bucket() < best.bucket();
    }

    /** DynamoDB's answer to one bad item (a key or the item over its size limit): a ValidationException. */
    private static boolean rejectedItem(RuntimeException e) {
        return e instanceof AwsServiceException aws && aws.statusCode() == 400 && aws.awsErrorDetails() != null
                && "ValidationException".equals(aws.awsErrorDetails().errorCode());
    }

    private static String message(RuntimeException e) {
        if (e instanceof AwsServiceException aws && aws.awsErrorDetails() != null
                && aws.awsErrorDetails().errorMessage() != null) {
            String text = aws.awsErrorDetails().errorMessage();
            return text.endsWith(".") ? text : text + ".";
        }
        return "a ValidationException.";
    }

    /** One call's records on their way to the table: the requests still to send, and what became of each record. */
    private final class Write {
        private final Map<String, Record> byKey;
        private final Deque<List<WriteRequest>> pending = new ArrayDeque<>();
        private final Map<Record, Failure> failed = new HashMap<>();
        /** Records DynamoDB refused alone for a reason other than their size: theirs, or the table's fault. */
        private final Map<Record, Failure> rejected = new HashMap<>();
        private int written;

        /** The records as BatchWriteItem requests, {@value #MAX_BATCH} a call. */
        Write(List<Record> records) {
            byKey = new HashMap<>(records.size() * 2);
            List<WriteRequest> chunk = new ArrayList<>(MAX_BATCH);
            for (Record record : records) {
                WriteRequest request = writeRequest(record);
                if (byKey.put(key(request.putRequest().item()), record) != null) {
                    throw new IllegalArgumentException("two records with the same key in one write");
                }
                if (chunk.size() == MAX_BATCH) {
                    pending.add(chunk);
                    chunk = new ArrayList<>(MAX_BATCH);
                }
                chunk.add(request);
            }
            if (!chunk.isEmpty()) {
                pending.add(chunk);
            }
        }

        /** Sends until every request is written or has failed, or the deadline comes; answers the failures. */
        Map<Record, Failure> run(Deadline deadline) {
            int retry = 0;
            while (!pending.isEmpty()) {
                if (deadline.passed()) {
                    failPending();
                    break;
                }
                List<WriteRequest> batch = pending.poll();
                List<WriteRequest> unprocessed;
                try {
                    BatchWriteItemResponse response = dynamoDb.batchWriteItem(r -> r.requestItems(Map.of(table, batch)));
                    unprocessed = response.hasUnprocessedItems()
                            ? response.unprocessedItems().getOrDefault(table, List.of()) : List.of();
                } catch (RuntimeException e) {
                    refused(batch, e);
                    continue;
                }
                written += batch.size() - unprocessed.size();
                if (unprocessed.isEmpty()) {
                    retry = 0;
                    continue;
                }
                pending.add(new ArrayList<>(unprocessed));
                if (!waitBeforeRetry(++retry, deadline)) {
                    failPending();
                    break;
                }
            }
            judgeRejections();
            return failed;
        }

        /**
         * A request DynamoDB refused: one with a bad item is halved until that item is alone (its neighbours
         * go again); any other error fails its records (the SDK has already retried what it deems retryable).
         */
        private void refused(List<WriteRequest> batch, RuntimeException e) {
            if (!rejectedItem(e)) {
                fail(List.of(batch), Failures.classify(e, null));
            } else if (batch.size() > 1) {
                pending.addFirst(new ArrayList<>(batch.subList(batch.size() / 2, batch.size())));
                pending.addFirst(new ArrayList<>(batch.subList(0, batch.size() / 2)));
            } else {
                Record record = byKey.get(key(batch.get(0).putRequest().item()));
                Failure failure = new Failure(ErrorKind.ITEM_REJECTED, record.url()
                        + ": DynamoDB rejected its record: " + Failures.shorten(message(e)));
                (Failures.itemTooLarge(e) ? failed : rejected).put(record, failure);
            }
        }

        /** Backs off before sending the unprocessed items again; false when the deadline would pass first. */
        private boolean waitBeforeRetry(int retry, Deadline deadline) {
            Duration delay = backoff.delay(retry);
            if (delay.toMillis() >= deadline.remainingMillis()) {
                return false;
            }
            try {
                backoff.sleeper().sleep(delay);
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        /**
         * A rejection that names no size limit is the record's fault only if a neighbour was written: when
         * DynamoDB rejects every record of a write, the table is at fault (a wrong key schema, say), and the
         * rejections are transient.
         */
        private void judgeRejections() {
            boolean tableAtFault = written == 0;
            for (Map.Entry<Record, Failure> entry : rejected.entrySet()) {
                failed.put(entry.getKey(), tableAtFault ? new Failure(ErrorKind.AWS_ERROR,
                        "DynamoDB rejected every record of the write, which points at the table rather than the records ("
                                + entry.getValue().message() + ")."
                        ) : entry.getValue());
            }
        }

        /** Whatever is still to send when the time budget runs out (throttling) fails, transiently. */
        private void failPending() {
            int unwritten = 0;
            for (List<WriteRequest> chunk : pending) {
                unwritten += chunk.size();
            }
            fail(pending, new Failure(ErrorKind.TIME_BUDGET, "DynamoDB still left " + unwritten
                    + " writes unprocessed (throttling) when the invocation's time budget ran out."));
        }

        private void fail(Iterable<List<WriteRequest>> chunks, Failure failure) {
            for (List<WriteRequest> chunk : chunks) {
                for (WriteRequest request : chunk) {
                    Record record = byKey.get(key(request.putRequest().item()));
                    if (record != null) {
                        failed.put(record, failure);
                    }
                }
            }
        }
    }

    private static String key(Map<String, AttributeValue> item) {
        return item.get(RecordItems.TIME_INDEX_KEY).s() + '\n' + item.get(RecordItems.RANGE_KEY).s();
    }
}
