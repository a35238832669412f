package datalake.bench;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.interceptor.Context.AfterExecution;
import software.amazon.awssdk.core.interceptor.Context.BeforeExecution;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;

/**
 * The times one file of {@link FreshnessBenchmark} passed each point of its way, in this JVM's
 * {@link System#nanoTime()} (SQS's SentTimestamp, epoch milliseconds from moto on the same machine, is
 * converted). The first time wins at each point: a message delivered twice is queryable from the first
 * write. What notes the times (an interceptor, a wrapper of the handler) reads them and nothing else.
 */
final class FileTrace {
    private static final ExecutionAttribute<Long> STARTED = new ExecutionAttribute<>("bench-started");

    private final String id;
    private volatile long putDone;
    private volatile long sent;
    private volatile long handlerStart;
    private volatile long handlerEnd;
    private volatile long headStart;
    private volatile long headEnd;
    private volatile long writeAck;
    private volatile long writeCall;
    private volatile long queryAnswered;
    private final AtomicLong missedProbes = new AtomicLong();
    /** The files of the invocation that first handled this one: their HEADs run together, 8 at a time. */
    private volatile List<FileTrace> batch = List.of();

    private FileTrace(String id) {
        this.id = id;
    }

    String id() {
        return id;
    }

    /** Unique per file: the probe is a work_id query of one item. */
    String workId() {
        return "w-" + id;
    }

    void putDone(long nanos) {
        putDone = nanos;
    }

    void queryAnswered(long nanos) {
        if (queryAnswered == 0) {
            queryAnswered = nanos;
        }
    }

    void missedProbe() {
        missedProbes.incrementAndGet();
    }

    boolean answered() {
        return queryAnswered != 0;
    }

    long missedProbes() {
        return missedProbes.get();
    }

    double totalMillis() {
        return (queryAnswered - putDone) / 1e6;
    }

    double notificationMillis() {
        return (sent - putDone) / 1e6;
    }

    double queueMillis() {
        return (handlerStart - sent) / 1e6;
    }

    double oursMillis() {
        return (writeAck - handlerStart) / 1e6;
    }

    double headMillis() {
        return (headEnd - headStart) / 1e6;
    }

    double writeMillis() {
        return writeCall / 1e6;
    }

    /** Ours less the wait for the batch's HEADs (first start to last end) and for the file's write call. */
    double ownCodeMillis() {
        long first = Long.MAX_VALUE;
        long last = 0;
        for (FileTrace file : batch) {
            if (file.headStart != 0 && file.handlerStart == handlerStart) {
                first = Math.min(first, file.headStart);
                last = Math.max(last, file.headEnd);
            }
        }
        long heads = last > first ? last - first : 0;
        return (writeAck - handlerStart - heads - writeCall) / 1e6;
    }

    double queryMillis() {
        return (queryAnswered - writeAck) / 1e6;
    }

    double handlerMillis() {
        return (handlerEnd - handlerStart) / 1e6;
    }

    /** A query for a file, due at a time ({@link System#nanoTime()}). */
    record Probe(FileTrace trace, long due) implements Delayed {
        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(due - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(due, ((Probe) other).due);
        }
    }

    /** Every file's trace by id, and what notes the times on the way. */
    static final class Registry {
        /** The object key in an S3 event (form-URL-encoded there: moto writes the slash as %2F). */
        private static final Pattern KEY = Pattern.compile("\"key\"\\s*:\\s*\"([^\"/%]+)(?:/|%2F)data\"");
        private final Map<String, FileTrace> byId = new ConcurrentHashMap<>();
        private final long epochMillisBase = System.currentTimeMillis();
        private final long nanoBase = System.nanoTime();

        FileTrace add(String id) {
            FileTrace trace = new FileTrace(id);
            byId.put(id, trace);
            return trace;
        }

        /** The handler, noting when each invocation starts and ends and when its messages were sent to SQS. */
        RequestHandler<SQSEvent, SQSBatchResponse> handlerTimer(RequestHandler<SQSEvent, SQSBatchResponse> handler) {
            return (event, context) -> {
                long started = System.nanoTime();
                List<FileTrace> batch = new ArrayList<>();
                for (SQSEvent.SQSMessage message : event.getRecords()) {
                    Matcher key = KEY.matcher(message.getBody());
                    FileTrace trace = key.find() ? byId.get(key.group(1)) : null;
                    if (trace != null && trace.handlerStart == 0) {
                        String sentAt = message.getAttributes().get("SentTimestamp");
                        trace.sent = sentAt == null ? started
                                : nanoBase + (Long.parseLong(sentAt) - epochMillisBase) * 1_000_000L;
                        trace.handlerStart = started;
                        trace.batch = batch;
                        batch.add(trace);
                    }
                }
                try {
                    return handler.handleRequest(event, context);
                } finally {
                    long ended = System.nanoTime();
                    batch.forEach(t -> t.handlerEnd = ended);
                }
            };
        }

        /** Notes each HeadObject's start and end. */
        ExecutionInterceptor headTimer() {
            return new ExecutionInterceptor() {
                @Override
                public void beforeExecution(BeforeExecution context, ExecutionAttributes attributes) {
                    attributes.putAttribute(STARTED, System.nanoTime());
                }

                @Override
                public void afterExecution(AfterExecution context, ExecutionAttributes attributes) {
                    if (context.request() instanceof HeadObjectRequest head && head.key().endsWith("/data")) {
                        FileTrace trace = byId.get(head.key().substring(0, head.key().length() - "/data".length()));
                        if (trace != null && trace.headEnd == 0) {
                            trace.headStart = attributes.getAttribute(STARTED);
                            trace.headEnd = System.nanoTime();
                        }
                    }
                }
            };
        }

        /** Notes when each record's BatchWriteItem is acknowledged, and asks for the file to be queried then. */
        ExecutionInterceptor writeTimer(DelayQueue<Probe> probes) {
            return new ExecutionInterceptor() {
                @Override
                public void beforeExecution(BeforeExecution context, ExecutionAttributes attributes) {
                    attributes.putAttribute(STARTED, System.nanoTime());
                }

                @Override
                public void afterExecution(AfterExecution context, ExecutionAttributes attributes) {
                    if (!(context.request() instanceof BatchWriteItemRequest write)) {
                        return;
                    }
                    long acknowledged = System.nanoTime();
                    long call = acknowledged - attributes.getAttribute(STARTED);
                    for (List<WriteRequest> requests : write.requestItems().values()) {
                        for (WriteRequest request : requests) {
                            AttributeValue rangeKey = request.putRequest() == null ? null
                                    : request.putRequest().item().get("range_key");
                            String id = rangeKey == null ? "" : rangeKey.s().substring(rangeKey.s().indexOf(':') + 1);
                            FileTrace trace = byId.get(id);
                            if (trace != null && trace.writeAck == 0) {
                                trace.writeCall = call;
                                trace.writeAck = acknowledged;
                                probes.add(new Probe(trace, acknowledged));
                            }
                        }
                    }
                }
            };
        }
    }
}
