package datalake.local;

import java.util.Optional;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

/**
 * Holds a bulk push back while the local ingest queue holds {@value #LIMIT} messages or more. moto's SQS
 * reads its whole queue for every message it hands out or deletes, so a backlog of N costs O(N) a
 * message: a push of 10,000 files at full speed left the ingester a fraction of moto's time, on a
 * queue that grew without bound. AWS has no such cost, and the deployed pipeline needs no such brake.
 */
final class IngestBacklog {
    static final int LIMIT = 200;
    private static final long CHECK_EVERY_NANOS = 200_000_000L;

    private final SqsClient sqs;
    private final String queueUrl;
    private long checkedAt;
    private long depth;

    private IngestBacklog(SqsClient sqs, String queueUrl) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
        this.checkedAt = System.nanoTime() - CHECK_EVERY_NANOS;
    }

    /** The backlog of the stack whose bucket is {@code bucket}, or empty when moto has no such stack's queue. */
    static Optional<IngestBacklog> of(SqsClient sqs, String bucket) {
        String suffix = PushOptions.localBucket("");
        if (!bucket.endsWith(suffix)) {
            return Optional.empty();
        }
        String queue = bucket.substring(0, bucket.length() - suffix.length()) + "-ingest";
        try {
            return Optional.of(new IngestBacklog(sqs, sqs.getQueueUrl(r -> r.queueName(queue)).queueUrl()));
        } catch (QueueDoesNotExistException e) {
            return Optional.empty();
        }
    }

    /** Returns once the queue has room for one more file (counted as sent until the next check). */
    synchronized void awaitRoom() throws InterruptedException {
        while (true) {
            if (System.nanoTime() - checkedAt >= CHECK_EVERY_NANOS) {
                depth = depth(sqs, queueUrl);
                checkedAt = System.nanoTime();
            }
            if (depth < LIMIT) {
                depth++;
                return;
            }
            Thread.sleep(CHECK_EVERY_NANOS / 1_000_000);
        }
    }

    /** The messages a queue holds, visible or in flight. */
    static long depth(SqsClient sqs, String queueUrl) {
        return sqs.getQueueAttributes(r -> r.queueUrl(queueUrl).attributeNames(
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes()
                .values().stream().mapToLong(Long::parseLong).sum();
    }
}
