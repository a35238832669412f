package datalake.bench;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import datalake.emulators.LocalLambdaContext;
import datalake.emulators.SqsMessages;
import datalake.emulators.stack.FunctionSettings;
import datalake.emulators.stack.SqsEventSource;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ingest queue and Lambda's SQS event source, in this JVM, with the template's settings: a message is
 * visible once sent; MaximumConcurrency pollers each gather up to BatchSize messages for up to the
 * batching window and invoke a handler of their own (a sandbox each); the handler's
 * {@code batchItemFailures} are handed back to the queue, visible again after the visibility timeout,
 * and leave it on the receive that reaches maxReceiveCount (the ingester dead-letters them itself then);
 * the rest are deleted. moto's SQS cannot carry the scale benchmark's rate (it costs O(depth) a message).
 */
final class LambdaQueue implements AutoCloseable {
    private final SqsEventSource source;
    private final FunctionSettings function;
    private final Duration visibilityTimeout;
    private final int maxReceiveCount;
    private final ArrayDeque<Message> visible = new ArrayDeque<>();
    private final PriorityQueue<Message> hidden = new PriorityQueue<>((a, b) -> Long.compare(a.visibleAt, b.visibleAt));
    private final List<Thread> pollers = new ArrayList<>();
    /** When each message's last batch was handed to a handler: the one that handled it for good. */
    private final Map<String, Long> invoked = new ConcurrentHashMap<>();
    private final AtomicLong handedBack = new AtomicLong();
    private final AtomicLong leftOnLastReceive = new AtomicLong();
    private final AtomicLong invocations = new AtomicLong();
    private volatile boolean running = true;

    LambdaQueue(SqsEventSource source, FunctionSettings function, Duration visibilityTimeout, int maxReceiveCount) {
        this.source = source;
        this.function = function;
        this.visibilityTimeout = visibilityTimeout;
        this.maxReceiveCount = maxReceiveCount;
    }

    /** Starts a poller for each handler (MaximumConcurrency of them, one handler each). */
    void start(List<RequestHandler<SQSEvent, SQSBatchResponse>> handlers) {
        for (int i = 0; i < handlers.size(); i++) {
            RequestHandler<SQSEvent, SQSBatchResponse> handler = handlers.get(i);
            Thread poller = new Thread(() -> poll(handler), "scale-poller-" + i);
            poller.setDaemon(true);
            poller.start();
            pollers.add(poller);
        }
    }

    synchronized void send(String id, String body) {
        visible.add(new Message(id, body, System.currentTimeMillis()));
        notifyAll();
    }

    /** Messages the handlers returned as batch item failures (each return counts). */
    long handedBack() {
        return handedBack.get();
    }

    /** Failures on the receive that reached maxReceiveCount: out of the queue. */
    long leftOnLastReceive() {
        return leftOnLastReceive.get();
    }

    long invocations() {
        return invocations.get();
    }

    /** When a message's last batch was handed to a handler (System.nanoTime), or null if never. */
    Long invoked(String id) {
        return invoked.get(id);
    }

    /** Each poller finishes its batch, then stops. */
    @Override
    public void close() {
        synchronized (this) {
            running = false;
            notifyAll();
        }
        for (Thread poller : pollers) {
            try {
                poller.join(function.timeout().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void poll(RequestHandler<SQSEvent, SQSBatchResponse> handler) {
        while (running) {
            List<Message> batch;
            try {
                batch = receive();
            } catch (InterruptedException e) {
                return;
            }
            if (!batch.isEmpty()) {
                settle(batch, invoke(handler, batch));
            }
        }
    }

    /** Waits for a first message, then gathers up to BatchSize for up to the batching window. */
    private synchronized List<Message> receive() throws InterruptedException {
        List<Message> batch = new ArrayList<>(source.batchSize());
        long deadline = 0;
        while (running) {
            long now = System.nanoTime();
            while (!hidden.isEmpty() && hidden.peek().visibleAt <= now) {
                visible.add(hidden.poll());
            }
            while (batch.size() < source.batchSize() && !visible.isEmpty()) {
                Message m = visible.poll();
                m.receiveCount++;
                batch.add(m);
                if (batch.size() == 1) {
                    deadline = now + source.batchingWindow().toNanos();
                }
            }
            if (batch.size() == source.batchSize() || (!batch.isEmpty() && now >= deadline)) {
                return batch;
            }
            long wait = batch.isEmpty() ? 100 : Math.max(1, (deadline - now) / 1_000_000);
            if (!hidden.isEmpty()) {
                wait = Math.min(wait, Math.max(1, (hidden.peek().visibleAt - now) / 1_000_000));
            }
            wait(wait);
        }
        return batch;
    }

    /** The ids the handler hands back. */
    private Set<String> invoke(RequestHandler<SQSEvent, SQSBatchResponse> handler, List<Message> batch) {
        invocations.incrementAndGet();
        long now = System.nanoTime();
        List<SQSEvent.SQSMessage> records = new ArrayList<>(batch.size());
        Set<String> all = new HashSet<>();
        String region = source.queueArn().split(":", -1)[3];
        for (Message m : batch) {
            records.add(SqsMessages.toLambda(software.amazon.awssdk.services.sqs.model.Message.builder().messageId(m.id)
                    .receiptHandle(m.id + "#" + m.receiveCount).body(m.body)
                    .attributesWithStrings(Map.of("ApproximateReceiveCount", Integer.toString(m.receiveCount),
                            "SentTimestamp", Long.toString(m.sentMillis))).build(), source.queueArn(), region));
            all.add(m.id);
            invoked.put(m.id, now);
        }
        SQSEvent event = new SQSEvent();
        event.setRecords(records);
        SQSBatchResponse response;
        try {
            response = handler.handleRequest(event, new LocalLambdaContext(function.functionName(), function.timeout(),
                    function.memoryMb()));
        } catch (RuntimeException e) {
            return all; // Lambda hands the whole batch back
        }
        return SqsMessages.toLeaveOnQueue(response, all, source.reportBatchItemFailures());
    }

    private synchronized void settle(List<Message> batch, Set<String> failed) {
        long now = System.nanoTime();
        for (Message m : batch) {
            if (!failed.contains(m.id)) {
                continue;
            }
            handedBack.incrementAndGet();
            if (m.receiveCount >= maxReceiveCount) {
                leftOnLastReceive.incrementAndGet();
            } else {
                m.visibleAt = now + visibilityTimeout.toNanos();
                hidden.add(m);
            }
        }
        notifyAll();
    }

    private static final class Message {
        final String id;
        final String body;
        final long sentMillis;
        int receiveCount;
        long visibleAt;

        Message(String id, String body, long sentMillis) {
            this.id = id;
            this.body = body;
            this.sentMillis = sentMillis;
        }
    }
}
