package datalake.emulators;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * Lambda's SQS event source mapping, emulated: feeds an SQS queue to a handler the way Lambda does: batches of
 * up to {@code batchSize} messages, the handler's {@code batchItemFailures} left on the queue to come
 * back after the visibility timeout (and move to the DLQ after the queue's maxReceiveCount), the rest
 * deleted; a handler that throws, or answers with an unknown item id, fails the whole batch.
 */
public final class SqsLambdaPoller implements Runnable {
    private final SqsClient sqs;
    private final String queueUrl;
    private final String queueArn;
    private final String region;
    private final RequestHandler<SQSEvent, SQSBatchResponse> handler;
    private final int batchSize;
    private final Duration timeout;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong processed = new AtomicLong();
    private final AtomicLong failedItems = new AtomicLong();

    public SqsLambdaPoller(SqsClient sqs, String queueUrl, String queueArn, String region,
                    RequestHandler<SQSEvent, SQSBatchResponse> handler, int batchSize, Duration timeout) {
        if (batchSize < 1 || batchSize > 10) {
            throw new IllegalArgumentException("the batch size must be between 1 and 10 (SQS's receive limit).");
        }
        this.sqs = sqs;
        this.queueUrl = queueUrl;
        this.queueArn = queueArn;
        this.region = region;
        this.handler = handler;
        this.batchSize = batchSize;
        this.timeout = timeout;
    }

    @Override
    public void run() {
        while (running.get()) {
            try {
                pollOnce(1);
            } catch (RuntimeException e) {
                if (running.get()) {
                    System.err.println("{\"level\":\"WARN\",\"message\":\"local SQS poller: receive failed, retrying\"}");
                    sleepQuietly(1000);
                }
            }
        }
    }

    public void stop() {
        running.set(false);
    }

    /** Messages handed to the handler and acknowledged so far. */
    public long processed() {
        return processed.get();
    }

    /** Messages the handler returned as batch item failures so far. */
    public long failedItems() {
        return failedItems.get();
    }

    /** One receive and, if it got messages, one invocation; returns how many messages it received. */
    public int pollOnce(int waitSeconds) {
        List<Message> messages = sqs.receiveMessage(r -> r.queueUrl(queueUrl)
                .maxNumberOfMessages(batchSize)
                .waitTimeSeconds(waitSeconds)
                .messageSystemAttributeNames(MessageSystemAttributeName.ALL)
                .messageAttributeNames("All")).messages();
        if (messages.isEmpty()) {
            return 0;
        }
        SQSEvent event = new SQSEvent();
        List<SQSEvent.SQSMessage> records = new ArrayList<>(messages.size());
        for (Message m : messages) {
            records.add(SqsMessages.toLambda(m, queueArn, region));
        }
        event.setRecords(records);

        Set<String> failed = invoke(event, messages);
        List<DeleteMessageBatchRequestEntry> done = new ArrayList<>();
        for (Message m : messages) {
            if (!failed.contains(m.messageId())) {
                done.add(DeleteMessageBatchRequestEntry.builder()
                        .id(Integer.toString(done.size())).receiptHandle(m.receiptHandle()).build());
            }
        }
        if (!done.isEmpty()) {
            sqs.deleteMessageBatch(r -> r.queueUrl(queueUrl).entries(done));
        }
        processed.addAndGet(done.size());
        failedItems.addAndGet(failed.size());
        return messages.size();
    }

    /** The ids of the messages to leave on the queue. */
    private Set<String> invoke(SQSEvent event, List<Message> messages) {
        Set<String> all = new HashSet<>();
        messages.forEach(m -> all.add(m.messageId()));
        SQSBatchResponse response;
        try {
            response = handler.handleRequest(event, new LocalLambdaContext("datalake-ingester", timeout, 1024));
        } catch (RuntimeException e) {
            System.err.println("{\"level\":\"ERROR\",\"message\":\"the ingester threw; the whole batch returns to the queue\"}");
            return all;
        }
        Set<String> failed = new HashSet<>();
        if (response == null || response.getBatchItemFailures() == null) {
            return failed;
        }
        for (SQSBatchResponse.BatchItemFailure f : response.getBatchItemFailures()) {
            String id = f.getItemIdentifier();
            if (id == null || !all.contains(id)) {
                // Lambda treats an unknown or empty identifier as a failure of the whole batch.
                return all;
            }
            failed.add(id);
        }
        return failed;
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
