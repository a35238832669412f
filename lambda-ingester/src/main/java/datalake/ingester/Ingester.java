package datalake.ingester;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import datalake.records.Metadata;
import datalake.records.Record;
import datalake.records.RecordFactory;
import datalake.records.StatusReport;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ingests one SQS batch of S3 notifications: parse every message, follow every distinct object once
 * ({@link ObjectSync}: HEAD decides, whatever the event; records written, or removed, per-object items
 * committed conditionally, the latest table kept), dead-letter the permanent failures (and the transient
 * ones on their last receive), publish one report per message and hand the transient failures back to
 * SQS. A failure of one message never fails another.
 *
 * <p>Duplicates in one batch are resolved so that the outcome is the one of handling the messages
 * one after another in event order:
 * <ul>
 *   <li>The same object (bucket and key) named twice is read and written once; the event with the
 *       greater {@code sequencer} (else the later message) owns the write, and every message naming
 *       the object reports the same records, as the HEAD reads the object's current state.</li>
 *   <li>Two different objects whose records share keys (a copy keeps the metadata id) are ordered
 *       by LastModified, then by message order: the later one's record is written, and the earlier
 *       one's message still reports success with its own records, which a one-by-one run would have
 *       written and then overwritten. Its log line counts them in {@code records}, not in
 *       {@code records_written}.</li>
 * </ul>
 */
public final class Ingester implements AutoCloseable {
    /** How many objects are followed at once (HEADs, commits, deletes, latest-table calls). */
    public static final int DEFAULT_CONCURRENCY = 8;

    private final RecordFactory recordFactory;
    private final ReportPublisher reports;
    private final DeadLetterQueue deadLetters;
    private final Telemetry telemetry;
    private final Clock clock;
    private final String functionName;
    private final Integer maxReceiveCount;
    private final ExecutorService executor;
    private final ObjectSync sync;

    private Ingester(Builder b) {
        this.recordFactory = Objects.requireNonNull(b.recordFactory, "recordFactory");
        this.reports = Objects.requireNonNull(b.reports, "reports");
        this.deadLetters = Objects.requireNonNull(b.deadLetters, "deadLetters");
        this.telemetry = Objects.requireNonNull(b.telemetry, "telemetry");
        this.clock = Objects.requireNonNull(b.clock, "clock");
        this.functionName = Objects.requireNonNull(b.functionName, "functionName");
        this.maxReceiveCount = b.maxReceiveCount;
        this.executor = Executors.newFixedThreadPool(b.concurrency, daemonThreads());
        this.sync = new ObjectSync(Objects.requireNonNull(b.objects, "objects"),
                Objects.requireNonNull(b.records, "records"), Objects.requireNonNull(b.index, "index"), b.latest,
                recordFactory, executor, clock);
    }

    /** An ingester of one's own collaborators (fakes in unit tests); objects, records, index and dead letters are required. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The ingester on AWS, as the handler builds it (and SnapStart priming, the local runner and the
     * tests, on other clients): S3 HeadObject, DynamoDB writes and per-object items in the records
     * table, the latest table when the configuration
     * names one, SNS reports when it names a topic, the SQS DLQ; logs and metrics on standard output.
     * The builder may still change any part (a test's log sink).
     */
    public static Builder forAws(IngesterConfig config, IngesterClients clients) {
        return builder()
                .recordFactory(new RecordFactory(config.maxBucketSpan(), config.retentionDays()))
                .objects(new S3ObjectStore(clients.s3()))
                .records(new DynamoRecordsTable(clients.dynamoDb(), config.recordsTable(), Backoff.standard()))
                .index(new DynamoObjectIndex(clients.dynamoDb(), config.recordsTable(), Backoff.standard()))
                .maxReceiveCount(config.maxReceiveCount())
                .latest(config.latestTable() == null ? null
                        : new DynamoLatestTable(clients.dynamoDb(), config.latestTable()))
                .reports(config.reportTopicArn() == null ? ReportPublisher.NONE
                        : new SnsReportPublisher(clients.sns(), config.reportTopicArn()))
                .deadLetters(config.deadLetterUrl() == null ? DeadLetterQueue.NONE
                        : new SqsDeadLetterQueue(clients.sqs(), config.deadLetterUrl()))
                .functionName(config.functionName());
    }

    /** The parts of an {@link Ingester}; unset optional parts take the defaults named on each setter. */
    public static final class Builder {
        private RecordFactory recordFactory = new RecordFactory();
        private ObjectStore objects;
        private RecordsTable records;
        private ObjectIndex index;
        private LatestTable latest;
        private ReportPublisher reports = ReportPublisher.NONE;
        private DeadLetterQueue deadLetters;
        private Telemetry telemetry = Telemetry.toStandardOutput();
        private Clock clock = Clock.systemUTC();
        private String functionName = IngesterConfig.DEFAULT_FUNCTION_NAME;
        private int concurrency = DEFAULT_CONCURRENCY;
        private Integer maxReceiveCount;

        private Builder() {
        }

        /** Default: 30 buckets at most, no retention. */
        public Builder recordFactory(RecordFactory factory) {
            this.recordFactory = factory;
            return this;
        }

        public Builder objects(ObjectStore store) {
            this.objects = store;
            return this;
        }

        public Builder records(RecordsTable table) {
            this.records = table;
            return this;
        }

        /** The per-object items (required): what the index knows of each object of the bucket. */
        public Builder index(ObjectIndex objectIndex) {
            this.index = objectIndex;
            return this;
        }

        /**
         * The ingest queue's maxReceiveCount: a message failing transiently on that receive is dead-lettered
         * by the ingester, with its reason and a report, rather than by redrive. Default: null, never.
         */
        public Builder maxReceiveCount(Integer receives) {
            if (receives != null && receives < 1) {
                throw new IllegalArgumentException("the maxReceiveCount must be at least 1, not " + receives);
            }
            this.maxReceiveCount = receives;
            return this;
        }

        /** Default: null, no latest table. */
        public Builder latest(LatestTable table) {
            this.latest = table;
            return this;
        }

        /** Default: {@link ReportPublisher#NONE}. */
        public Builder reports(ReportPublisher publisher) {
            this.reports = publisher;
            return this;
        }

        public Builder deadLetters(DeadLetterQueue queue) {
            this.deadLetters = queue;
            return this;
        }

        /** Default: JSON lines on standard output. */
        public Builder telemetry(Telemetry sink) {
            this.telemetry = sink;
            return this;
        }

        /** Default: the system clock, UTC. */
        public Builder clock(Clock source) {
            this.clock = source;
            return this;
        }

        /** The {@code Function} dimension of the metrics; default "lambda-ingester". */
        public Builder functionName(String name) {
            this.functionName = name;
            return this;
        }

        /** How many HEADs (and latest-table writes) run at once; default {@value Ingester#DEFAULT_CONCURRENCY}. */
        public Builder concurrency(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("the concurrency must be at least 1, not " + threads);
            }
            this.concurrency = threads;
            return this;
        }

        public Ingester build() {
            return new Ingester(this);
        }
    }

    /**
     * Handles a batch and answers which messages SQS must deliver again.
     *
     * @param deadline  when the writes must stop retrying (the handler leaves a margin for reports)
     * @param requestId the invocation's id for the logs, or null
     */
    public SQSBatchResponse handle(List<SQSMessage> messages, Deadline deadline, String requestId) {
        long started = clock.millis();
        try {
            return ingest(messages, deadline, requestId, started);
        } catch (RuntimeException e) {
            // A defect, not a message's fault: give every message back to SQS rather than lose one.
            telemetry.batchError(requestId, messages.size(), e);
            List<SQSBatchResponse.BatchItemFailure> all = new ArrayList<>();
            for (SQSMessage message : messages) {
                all.add(new SQSBatchResponse.BatchItemFailure(message.getMessageId()));
            }
            return new SQSBatchResponse(all);
        }
    }

    /** The records of one object: validated metadata, one record per day bucket (no I/O). */
    List<Record> recordsOf(ObjectEvent event, StoredObject stored) {
        return recordFactory.records(ObjectSync.metadataOf(event.url(), stored), event.url(), stored.lastModified(),
                stored.size());
    }

    /**
     * Follows objects through the ingester's own code path, without a queue message (the backfill, S3
     * Batch Operations, the reconciliation): HEAD decides, the records are written or removed, the
     * per-object entries committed and the latest table kept, exactly as for a notification. No report
     * is published and nothing is dead-lettered: the caller counts the outcomes.
     *
     * @return one outcome per distinct object, in the order given
     */
    public List<Followed> follow(List<ObjectEvent> events, Deadline deadline) {
        Map<String, BatchObject> byObject = new LinkedHashMap<>();
        int order = 0;
        for (ObjectEvent event : events) {
            own(byObject, event, ++order);
        }
        List<BatchObject> objects = new ArrayList<>(byObject.values());
        sync.sync(objects, deadline);
        List<Followed> followed = new ArrayList<>(objects.size());
        for (BatchObject object : objects) {
            boolean indexed = object.state == datalake.dynamodb.ObjectEntry.State.INDEXED && object.records != null;
            followed.add(new Followed(object.event, object.state, object.failure,
                    indexed ? object.records.size() : 0, object.removed));
        }
        return followed;
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }

    private SQSBatchResponse ingest(List<SQSMessage> batch, Deadline deadline, String requestId, long started) {
        List<BatchMessage> messages = parse(batch);
        List<BatchObject> objects = objects(messages);
        sync.sync(objects, deadline);

        Map<ErrorKind, Integer> errors = new EnumMap<>(ErrorKind.class);
        for (BatchMessage message : messages) {
            message.decide();
            message.givenUp = message.outcome != null && !message.outcome.permanent() && lastReceive(message);
        }
        deadLetter(messages);
        int reportsFailed = report(messages, requestId);

        List<SQSBatchResponse.BatchItemFailure> retry = new ArrayList<>();
        int succeeded = 0;
        int failed = 0;
        int written = 0;
        for (BatchMessage message : messages) {
            Metadata first = message.firstMetadata();
            Report.Action action = message.action();
            telemetry.message(new Telemetry.MessageLine(requestId, message.messageId(), message.status(),
                    action == null ? null : action.json(),
                    first == null ? null : first.what(), first == null ? null : first.where(),
                    first == null ? null : first.id(), message.objects.size(), message.recordCount(),
                    message.recordsWritten(), message.recordsRemoved(), message.outcome,
                    message.finished() - message.started));
            written += message.recordsWritten();
            if (message.outcome == null) {
                succeeded++;
            } else {
                errors.merge(message.outcome.kind(), 1, Integer::sum);
                if (message.settledAsError()) {
                    failed++;
                } else {
                    retry.add(new SQSBatchResponse.BatchItemFailure(message.messageId()));
                }
            }
        }
        telemetry.metrics(new Telemetry.BatchMetrics(functionName, messages.size(), succeeded, failed, retry.size(),
                written, reportsFailed, clock.millis() - started, errors));
        return new SQSBatchResponse(retry);
    }

    /** Whether SQS will not deliver this message again: its receive count has reached the queue's maxReceiveCount. */
    private boolean lastReceive(BatchMessage message) {
        if (maxReceiveCount == null || message.sqsMessage.getAttributes() == null) {
            return false;
        }
        String count = message.sqsMessage.getAttributes().get("ApproximateReceiveCount");
        try {
            return count != null && Integer.parseInt(count) >= maxReceiveCount;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private List<BatchMessage> parse(List<SQSMessage> batch) {
        List<BatchMessage> messages = new ArrayList<>(batch.size());
        for (SQSMessage sqsMessage : batch) {
            BatchMessage message = new BatchMessage(sqsMessage, clock.millis());
            try {
                message.notification = NotificationParser.parse(sqsMessage.getBody());
            } catch (RuntimeException e) {
                message.outcome = Failures.classify(e, null);
            }
            messages.add(message);
        }
        return messages;
    }

    /** The distinct objects of the batch, each owned by its latest event (sequencer, then order). */
    private static List<BatchObject> objects(List<BatchMessage> messages) {
        Map<String, BatchObject> byObject = new LinkedHashMap<>();
        int order = 0;
        for (BatchMessage message : messages) {
            if (message.notification == null) {
                continue;
            }
            for (ObjectEvent event : message.notification.events()) {
                BatchObject object = own(byObject, event, ++order);
                if (object.order == order) {
                    object.owner = message;
                }
                if (!message.objects.contains(object)) {
                    message.objects.add(object);
                }
            }
        }
        return new ArrayList<>(byObject.values());
    }

    /**
     * The one rule for an object (bucket and key) named more than once (docs/DESIGN.md, "Ingest messages"):
     * the event with the greater {@code sequencer} wins; without sequencers, or with equal ones, the later
     * event does, and the object takes its winning event's place ({@code order}) in the batch.
     *
     * @return the object the event names
     */
    private static BatchObject own(Map<String, BatchObject> byObject, ObjectEvent event, int order) {
        BatchObject object = byObject.computeIfAbsent(event.bucket() + '/' + event.key(), k -> new BatchObject());
        if (object.event == null || Sequencers.compare(event.sequencer(), object.event.sequencer()) >= 0) {
            object.event = event;
            object.order = order;
        }
        return object;
    }

    /**
     * Permanent failures, and transient ones on their last receive, go to the DLQ with their reason;
     * one that cannot go there stays in SQS (never lost).
     */
    private void deadLetter(List<BatchMessage> messages) {
        List<DeadLetter> letters = new ArrayList<>();
        Map<String, BatchMessage> byId = new HashMap<>();
        for (BatchMessage message : messages) {
            if (message.settledAsError()) {
                Failure reason = message.outcome;
                if (message.givenUp) {
                    reason = new Failure(reason.kind(), reason.message() + " SQS delivered the message "
                            + maxReceiveCount + " times, the queue's maxReceiveCount: it is dead-lettered, not retried.");
                    message.outcome = reason;
                }
                letters.add(new DeadLetter(message.messageId(), message.sqsMessage.getBody(), reason));
                byId.put(message.messageId(), message);
            }
        }
        if (letters.isEmpty()) {
            return;
        }
        Map<String, String> unsent = deadLetters.send(letters);
        for (Map.Entry<String, String> entry : unsent.entrySet()) {
            BatchMessage message = byId.get(entry.getKey());
            if (message != null) {
                message.outcome = new Failure(ErrorKind.DLQ_UNAVAILABLE, "the message could not be ingested ("
                        + message.outcome.kind().label() + ") nor dead-lettered: " + entry.getValue());
                message.givenUp = false;
            }
        }
    }

    /**
     * One report per settled message (transient ones are reported when they settle), with the message's
     * own start and duration. A report that cannot be published changes nothing else: the records stay
     * written exactly once.
     */
    private int report(List<BatchMessage> messages, String requestId) {
        List<Report> settled = new ArrayList<>();
        for (BatchMessage message : messages) {
            if (message.outcome != null && !message.settledAsError()) {
                continue;
            }
            double duration = (message.finished() - message.started) / 1000.0;
            Metadata first = message.firstMetadata();
            StatusReport report = message.outcome == null
                    ? new StatusReport(StatusReport.Status.SUCCESS, message.started, duration, message.fileRecords(),
                            message.notes())
                    : StatusReport.error(message.started, duration, message.fileRecords(), message.outcome.message());
            settled.add(new Report(message.messageId(), report, first == null ? null : first.what(), message.action()));
        }
        if (settled.isEmpty()) {
            return 0;
        }
        Map<String, String> unpublished;
        try {
            unpublished = reports.publish(settled);
        } catch (RuntimeException e) {
            unpublished = new LinkedHashMap<>();
            for (Report report : settled) {
                unpublished.put(report.messageId(), Failures.classify(e, null).message());
            }
        }
        for (Map.Entry<String, String> entry : unpublished.entrySet()) {
            telemetry.warning(requestId, "report not published", entry.getKey(), entry.getValue());
        }
        return unpublished.size();
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "ingester-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
