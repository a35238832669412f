package datalake.emulators;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import datalake.emulators.stack.FunctionSettings;
import datalake.emulators.stack.SqsEventSource;
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
 * Lambda's SQS event source mapping, emulated with the template's settings ({@link SqsEventSource}): a
 * batch gathers up to BatchSize messages for up to MaximumBatchingWindowInSeconds (SQS hands out ten a
 * receive), up to MaximumConcurrency batches run at once ({@link #start()}), and with
 * ReportBatchItemFailures the handler's {@code batchItemFailures} stay on the queue (back after the
 * visibility timeout, to the DLQ after the queue's maxReceiveCount) while the rest is deleted; without
 * it, or when the handler throws or names an unknown item, the batch succeeds or fails as a whole.
 * The SQS client should sign as the function's role ({@code TemplateStack.eventSourceEndpoints}), as
 * Lambda's poller does.
 */
public final class SqsLambdaPoller implements Runnable, AutoCloseable {
    /** SQS's most messages a receive. */
    private static final int RECEIVE_LIMIT = 10;

    private final SqsClient sqs;
    private final SqsEventSource source;
    private final String region;
    private final RequestHandler<SQSEvent, SQSBatchResponse> handler;
    private final FunctionSettings function;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong failedItems = new AtomicLong();
    private final AtomicLong delivered = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();

    public SqsLambdaPoller(SqsClient sqs, SqsEventSource source, RequestHandler<SQSEvent, SQSBatchResponse> handler,
            FunctionSettings function) {
        if (source.batchSize() < 1 || source.batchSize() > 10_000) {
            throw new IllegalArgumentException("the batch size must be between 1 and 10,000, not " + source.batchSize() + ".");
        }
        if (source.batchSize() > RECEIVE_LIMIT && source.batchingWindow().isZero()) {
            throw new IllegalArgumentException("a batch size above 10 needs a batching window of at least 1 s, as Lambda requires.");
        }
        this.sqs = sqs;
        this.source = source;
        this.region = source.queueArn().split(":", -1)[3];
        this.handler = handler;
        this.function = function;
    }

    /** Starts MaximumConcurrency pollers, each on a daemon thread of its own. */
    public synchronized void start() {
        for (int i = 0; i < source.maximumConcurrency(); i++) {
            Thread thread = new Thread(this, "sqs-poller-" + function.functionName() + "-" + i);
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
    }

    /** One poller's loop; {@link #start()} runs MaximumConcurrency of them. */
    @Override
    public void run() {
        int failures = 0;
        while (running.get()) {
            try {
                pollOnce(1);
                failures = 0;
            } catch (RuntimeException e) {
                if (running.get()) {
                    // The first failure of a run of them, then one line a minute: who watches the emulator stops the rest.
                    if (failures++ % 60 == 0) {
                        System.err.println("sqs-poller: receiving from " + source.queueUrl() + " failed (" + e.getMessage()
                                + "); retrying every second");
                    }
                    sleepQuietly(1000);
                }
            }
        }
    }

    /** Each poller finishes the batch it holds, then stops. */
    public void stop() {
        running.set(false);
    }

    /** Stops and waits (up to the function's timeout) for the pollers {@link #start()} started. */
    @Override
    public void close() {
        close(function.timeout());
    }

    /** Stops and waits up to {@code wait} in all for the pollers {@link #start()} started to finish their batches. */
    public synchronized void close(Duration wait) {
        stop();
        long deadline = System.nanoTime() + wait.toNanos();
        for (Thread thread : threads) {
            try {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !thread.join(Duration.ofNanos(left))) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Messages the handler returned as batch item failures so far. */
    public long failedItems() {
        return failedItems.get();
    }

    /** Messages handed to the handler so far (a message delivered again counts again). */
    public long messages() {
        return delivered.get();
    }

    /**
     * One batch: a receive (waiting up to {@code waitSeconds} for the first messages), more receives until
     * BatchSize or the batching window, one invocation, and the batch settled. Returns how many messages
     * the batch held.
     */
    public int pollOnce(int waitSeconds) {
        List<Message> messages = receive(Math.min(RECEIVE_LIMIT, source.batchSize()), waitSeconds);
        if (messages.isEmpty()) {
            return 0;
        }
        long deadline = System.nanoTime() + source.batchingWindow().toNanos();
        while (messages.size() < source.batchSize() && System.nanoTime() < deadline && running.get()) {
            // Long polls of whole seconds (SQS's unit): the window may run over by less than one.
            long remainingMillis = Duration.ofNanos(deadline - System.nanoTime()).toMillis();
            messages.addAll(receive(Math.min(RECEIVE_LIMIT, source.batchSize() - messages.size()),
                    (int) Math.min(20, Math.max(1, (remainingMillis + 999) / 1000))));
        }
        SQSEvent event = new SQSEvent();
        List<SQSEvent.SQSMessage> records = new ArrayList<>(messages.size());
        for (Message m : messages) {
            records.add(SqsMessages.toLambda(m, source.queueArn(), region));
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
        for (int from = 0; from < done.size(); from += RECEIVE_LIMIT) {
            List<DeleteMessageBatchRequestEntry> entries = done.subList(from, Math.min(done.size(), from + RECEIVE_LIMIT));
            sqs.deleteMessageBatch(r -> r.queueUrl(source.queueUrl()).entries(entries));
        }
        failedItems.addAndGet(failed.size());
        delivered.addAndGet(messages.size());
        return messages.size();
    }

    private List<Message> receive(int count, int waitSeconds) {
        return new ArrayList<>(sqs.receiveMessage(r -> r.queueUrl(source.queueUrl())
                .maxNumberOfMessages(count)
                .waitTimeSeconds(waitSeconds)
                .messageSystemAttributeNames(MessageSystemAttributeName.ALL)
                .messageAttributeNames("All")).messages());
    }

    /** The ids of the messages to leave on the queue. */
    private Set<String> invoke(SQSEvent event, List<Message> messages) {
        Set<String> all = new HashSet<>();
        messages.forEach(m -> all.add(m.messageId()));
        SQSBatchResponse response;
        try {
            response = handler.handleRequest(event, new LocalLambdaContext(function.functionName(), function.timeout(),
                    function.memoryMb()));
        } catch (RuntimeException e) {
            System.err.println("{\"level\":\"ERROR\",\"message\":\"the handler threw; the whole batch returns to the queue\"}");
            return all;
        }
        return SqsMessages.toLeaveOnQueue(response, all, source.reportBatchItemFailures());
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
