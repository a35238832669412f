package datalake.ingester;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import datalake.dynamodb.CachedShardMap;
import datalake.dynamodb.ShardMapTable;
import datalake.records.RecordFactory;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

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
 *       greater {@code sequencer} (a present one over none, else the later message) owns the write
 *       ({@link DistinctObjects}), and every message naming the object reports the same records, as the
 *       HEAD reads the object's current state.</li>
 *   <li>Two different objects whose records share keys (a copy keeps the metadata id) are ordered
 *       by LastModified, then by their places in the batch: the later one's record is written, and the earlier
 *       one's message still reports success with its own records, which a one-by-one run would have
 *       written and then overwritten. The batch's log line counts them in {@code records}, not in
 *       {@code records_written}.</li>
 * </ul>
 */
public final class Ingester implements AutoCloseable {
    /** How many objects are followed at once (HEADs, commits, deletes, latest-table calls). */
    public static final int DEFAULT_CONCURRENCY = 8;
    /**
     * The most objects followed at once, however large the batch: a function of 1,024 MB has about 0.6 of
     * a vCPU, busy well before 64 calls of a few milliseconds each are in flight, and each thread keeps
     * a connection open to S3 and to DynamoDB.
     */
    public static final int MAX_CONCURRENCY = 64;

    private final Telemetry telemetry;
    private final Clock clock;
    private final ExecutorService executor;
    private final ObjectSync sync;
    private final Settlement settlement;

    private Ingester(Builder b) {
        RecordFactory recordFactory = Objects.requireNonNull(b.recordFactory, "recordFactory");
        ReportPublisher reports = Objects.requireNonNull(b.reports, "reports");
        DeadLetterQueue deadLetters = Objects.requireNonNull(b.deadLetters, "deadLetters");
        this.telemetry = Objects.requireNonNull(b.telemetry, "telemetry");
        this.clock = Objects.requireNonNull(b.clock, "clock");
        String functionName = Objects.requireNonNull(b.functionName, "functionName");
        this.executor = Executors.newFixedThreadPool(b.concurrency, daemonThreads());
        this.sync = new ObjectSync(Objects.requireNonNull(b.objects, "objects"),
                Objects.requireNonNull(b.records, "records"), Objects.requireNonNull(b.index, "index"), b.latest,
                recordFactory, executor, clock);
        this.settlement = new Settlement(reports, deadLetters, telemetry, functionName, b.maxReceiveCount);
    }

    /** An ingester of one's own collaborators (fakes in unit tests); objects, records, index and dead letters are required. */
    static Builder builder() {
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
                .recordFactory(recordFactory(config, clients.dynamoDb()))
                .objects(new S3ObjectStore(clients.s3()))
                .records(new DynamoRecordsTable(clients.dynamoDb(), config.recordsTable(), Backoff.standard()))
                .index(new DynamoObjectIndex(clients.dynamoDb(), config.recordsTable(), Backoff.standard()))
                .maxReceiveCount(config.maxReceiveCount())
                .concurrency(config.concurrency())
                .latest(config.latestTable() == null ? null
                        : new DynamoLatestTable(clients.dynamoDb(), config.latestTable()))
                .reports(config.reportTopicArn() == null ? ReportPublisher.NONE
                        : new SnsReportPublisher(clients.sns(), config.reportTopicArn()))
                .deadLetters(config.deadLetterUrl() == null ? DeadLetterQueue.NONE
                        : new SqsDeadLetterQueue(clients.sqs(), config.deadLetterUrl()))
                .functionName(config.functionName());
    }

    /**
     * The records of a file as the configuration makes them, keyed by the shard map of the records table
     * (read at most once a minute: {@link CachedShardMap}). The tools check the index with the same.
     */
    public static RecordFactory recordFactory(IngesterConfig config, DynamoDbClient dynamoDb) {
        return new RecordFactory(config.maxBucketSpan(), config.retentionDays(),
                new CachedShardMap(new ShardMapTable(dynamoDb, config.recordsTable()), Clock.systemUTC()));
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
        Builder recordFactory(RecordFactory factory) {
            this.recordFactory = factory;
            return this;
        }

        Builder objects(ObjectStore store) {
            this.objects = store;
            return this;
        }

        Builder records(RecordsTable table) {
            this.records = table;
            return this;
        }

        /** The per-object items (required): what the index knows of each object of the bucket. */
        Builder index(ObjectIndex objectIndex) {
            this.index = objectIndex;
            return this;
        }

        /**
         * The ingest queue's maxReceiveCount: a message failing transiently on that receive is dead-lettered
         * by the ingester, with its reason and a report, rather than by redrive. Default: null, never.
         */
        Builder maxReceiveCount(Integer receives) {
            if (receives != null && receives < 1) {
                throw new IllegalArgumentException("the maxReceiveCount must be at least 1, not " + receives);
            }
            this.maxReceiveCount = receives;
            return this;
        }

        /** Default: null, no latest table. */
        Builder latest(LatestTable table) {
            this.latest = table;
            return this;
        }

        /** Default: {@link ReportPublisher#NONE}. */
        Builder reports(ReportPublisher publisher) {
            this.reports = publisher;
            return this;
        }

        Builder deadLetters(DeadLetterQueue queue) {
            this.deadLetters = queue;
            return this;
        }

        /** Default: JSON lines on standard output. */
        public Builder telemetry(Telemetry sink) {
            this.telemetry = sink;
            return this;
        }

        /**
         * Default: the system clock, UTC. Its time is each commit's {@code observed_at}, which orders a key's
         * commits against every other handler's: the tools, on a workstation, give AWS's.
         */
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
     * @param deadline  when the objects' steps must end; the check, dead letters and reports end by its end
     * @param requestId the invocation's id for the logs, or null
     */
    public SQSBatchResponse handle(List<SQSMessage> messages, Deadline deadline, String requestId) {
        Laps laps = new Laps(clock);
        try {
            return ingest(messages, deadline, requestId, laps);
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

    /**
     * Follows objects through the ingester's own code path, without a queue message (the backfill, S3
     * Batch Operations, the reconciliation): HEAD decides, the records are written or removed, the
     * per-object entries committed and the latest table kept, exactly as for a notification, and an
     * object named twice is followed once, as its winning event says ({@link DistinctObjects}). No report
     * is published and nothing is dead-lettered: the caller counts the outcomes.
     *
     * @return one outcome per distinct object, in the order they are first named
     */
    public List<Followed> follow(List<ObjectEvent> events, Deadline deadline) {
        DistinctObjects distinct = new DistinctObjects();
        for (int i = 0; i < events.size(); i++) {
            distinct.add(events.get(i), i);
        }
        List<Followed> followed = new ArrayList<>();
        for (ObjectOutcome object : sync.sync(distinct.objects(), deadline)) {
            followed.add(object.followed());
        }
        return followed;
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }

    private SQSBatchResponse ingest(List<SQSMessage> batch, Deadline deadline, String requestId, Laps laps) {
        DistinctObjects distinct = new DistinctObjects();
        List<Parsed> parsed = new ArrayList<>(batch.size());
        for (SQSMessage message : batch) {
            parsed.add(parse(message, parsed.size(), distinct));
        }
        laps.lap("parse");
        Map<String, ObjectOutcome> outcomes = new HashMap<>();
        for (ObjectOutcome object : sync.sync(distinct.objects(), deadline)) {
            outcomes.put(object.key(), object);
        }
        laps.lap("objects");
        List<BatchMessage> messages = new ArrayList<>(batch.size());
        for (Parsed message : parsed) {
            List<ObjectOutcome> objects = new ArrayList<>(message.objects().size());
            message.objects().forEach(key -> objects.add(outcomes.get(key)));
            messages.add(BatchMessage.of(message.message(), message.index(), message.started(), message.unreadable(),
                    objects));
        }
        return CallDeadline.within(deadline.settleBy(), () -> settlement.settle(messages, requestId, laps));
    }

    /** A queue message as parsed: the objects it names ({@link BatchObject#key()}, once each), or why it names none. */
    private record Parsed(SQSMessage message, int index, long started, List<String> objects, Failure unreadable) {
    }

    private Parsed parse(SQSMessage message, int index, DistinctObjects distinct) {
        long started = clock.millis();
        List<String> objects = new ArrayList<>(1);
        try {
            for (ObjectEvent event : NotificationParser.parse(message.getBody()).events()) {
                String key = distinct.add(event, index);
                if (!objects.contains(key)) {
                    objects.add(key);
                }
            }
            return new Parsed(message, index, started, objects, null);
        } catch (RuntimeException e) {
            return new Parsed(message, index, started, List.of(), Failures.classify(e, null));
        }
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
