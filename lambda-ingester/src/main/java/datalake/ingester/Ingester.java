package datalake.ingester;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import datalake.records.Metadata;
import datalake.records.MetadataParser;
import datalake.records.Record;
import datalake.records.RecordFactory;
import datalake.records.StatusReport;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ingests one SQS batch of S3 notifications: parse every message, HEAD every distinct object once
 * (concurrently, bounded), build the records, write them (no key twice), keep the latest table,
 * dead-letter the permanent failures, publish one report per message and hand the transient
 * failures back to SQS. A failure of one message never fails another.
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
    /** How many HeadObject and latest-table calls run at once. */
    public static final int DEFAULT_CONCURRENCY = 8;

    private final RecordFactory recordFactory;
    private final ObjectStore objects;
    private final RecordStore records;
    private final ReportPublisher reports;
    private final DeadLetterQueue deadLetters;
    private final Telemetry telemetry;
    private final Clock clock;
    private final String functionName;
    private final ExecutorService executor;

    /**
     * @param functionName the {@code Function} dimension of the metrics
     * @param concurrency  how many HEADs (and latest-table writes) run at once
     */
    public Ingester(RecordFactory recordFactory, ObjectStore objects, RecordStore records, ReportPublisher reports,
            DeadLetterQueue deadLetters, Telemetry telemetry, Clock clock, String functionName, int concurrency) {
        this.recordFactory = Objects.requireNonNull(recordFactory, "recordFactory");
        this.objects = Objects.requireNonNull(objects, "objects");
        this.records = Objects.requireNonNull(records, "records");
        this.reports = Objects.requireNonNull(reports, "reports");
        this.deadLetters = Objects.requireNonNull(deadLetters, "deadLetters");
        this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.functionName = Objects.requireNonNull(functionName, "functionName");
        this.executor = Executors.newFixedThreadPool(concurrency, daemonThreads());
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
        return recordFactory.records(metadataOf(event.url(), stored), event.url(), stored.lastModified(), stored.size());
    }

    private static Metadata metadataOf(String url, StoredObject stored) {
        if (stored.datalakeMetadata() == null) {
            throw new MissingMetadataException(url);
        }
        return MetadataParser.parse(stored.datalakeMetadata());
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }

    private SQSBatchResponse ingest(List<SQSMessage> messages, Deadline deadline, String requestId, long started) {
        List<Job> jobs = parse(messages);
        List<Target> targets = targets(jobs);
        readObjects(targets);
        writeRecords(targets, deadline);
        keepLatest(targets);

        Map<ErrorKind, Integer> errors = new EnumMap<>(ErrorKind.class);
        for (Job job : jobs) {
            job.decide();
        }
        deadLetter(jobs);
        int reportsFailed = report(jobs, started, requestId);

        List<SQSBatchResponse.BatchItemFailure> retry = new ArrayList<>();
        int succeeded = 0;
        int failed = 0;
        int written = 0;
        for (Job job : jobs) {
            long duration = clock.millis() - started;
            Metadata first = job.firstMetadata();
            telemetry.message(new Telemetry.MessageLine(requestId, job.messageId(), job.status(),
                    first == null ? null : first.what(), first == null ? null : first.where(),
                    first == null ? null : first.id(), job.targets.size(), job.recordCount(),
                    job.recordsWritten(), job.outcome, duration));
            written += job.recordsWritten();
            if (job.outcome == null) {
                succeeded++;
            } else {
                errors.merge(job.outcome.kind(), 1, Integer::sum);
                if (job.outcome.permanent()) {
                    failed++;
                } else {
                    retry.add(new SQSBatchResponse.BatchItemFailure(job.messageId()));
                }
            }
        }
        telemetry.metrics(new Telemetry.BatchMetrics(functionName, jobs.size(), succeeded, failed, retry.size(),
                written, reportsFailed, clock.millis() - started, errors));
        return new SQSBatchResponse(retry);
    }

    private static List<Job> parse(List<SQSMessage> messages) {
        List<Job> jobs = new ArrayList<>(messages.size());
        for (SQSMessage message : messages) {
            Job job = new Job(message);
            try {
                job.notification = NotificationParser.parse(message.getBody());
            } catch (RuntimeException e) {
                job.outcome = Failures.classify(e, null);
            }
            jobs.add(job);
        }
        return jobs;
    }

    /** The distinct objects of the batch, each owned by its latest event (sequencer, then order). */
    private static List<Target> targets(List<Job> jobs) {
        Map<String, Target> byObject = new LinkedHashMap<>();
        int order = 0;
        for (Job job : jobs) {
            if (job.notification == null) {
                continue;
            }
            for (ObjectEvent event : job.notification.events()) {
                order++;
                Target target = byObject.computeIfAbsent(event.bucket() + '/' + event.key(), k -> new Target());
                if (target.event == null || Sequencers.compare(event.sequencer(), target.event.sequencer()) >= 0) {
                    target.event = event;
                    target.order = order;
                    target.owner = job;
                }
                if (!job.targets.contains(target)) {
                    job.targets.add(target);
                }
            }
        }
        return new ArrayList<>(byObject.values());
    }

    /** HEADs every object, concurrently, and builds its records. */
    private void readObjects(List<Target> targets) {
        List<Future<?>> pending = new ArrayList<>(targets.size());
        for (Target target : targets) {
            pending.add(executor.submit(() -> read(target)));
        }
        for (int i = 0; i < pending.size(); i++) {
            try {
                pending.get(i).get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while reading objects", e);
            } catch (java.util.concurrent.ExecutionException e) {
                targets.get(i).fail(Failures.classify(e, targets.get(i).event.url()));
            }
        }
    }

    private void read(Target target) {
        String url = target.event.url();
        StoredObject stored;
        try {
            stored = objects.head(target.event.bucket(), target.event.key());
        } catch (RuntimeException e) {
            target.fail(Failures.classify(e, url));
            return;
        }
        try {
            target.metadata = metadataOf(url, stored);
            target.records = recordFactory.records(target.metadata, url, stored.lastModified(), stored.size());
        } catch (RuntimeException e) {
            target.fail(Failures.classify(e, url));
        }
    }

    /** Writes each key once: the record of the later object (LastModified, then order) wins. */
    private void writeRecords(List<Target> targets, Deadline deadline) {
        List<Target> ready = new ArrayList<>();
        for (Target target : targets) {
            if (target.records != null && target.failure == null) {
                ready.add(target);
            }
        }
        ready.sort(Target.LATER_LAST);
        Map<String, Record> winners = new LinkedHashMap<>();
        Map<String, Target> owners = new HashMap<>();
        Map<String, List<Target>> contributors = new HashMap<>();
        for (Target target : ready) {
            for (Record record : target.records) {
                String key = record.timeIndexKey() + "\n" + record.rangeKey();
                winners.put(key, record);
                owners.put(key, target);
                contributors.computeIfAbsent(key, k -> new ArrayList<>(1)).add(target);
            }
        }
        Map<Record, Failure> failures = winners.isEmpty() ? Map.of()
                : records.write(new ArrayList<>(winners.values()), deadline);
        for (Map.Entry<String, Record> entry : winners.entrySet()) {
            Failure failure = failures.get(entry.getValue());
            if (failure == null) {
                owners.get(entry.getKey()).written++;
            } else {
                // Nobody's version of this key is stored: every object that has it must come again.
                for (Target target : contributors.get(entry.getKey())) {
                    target.fail(failure);
                }
            }
        }
    }

    /** Offers the newest file of each what:where in the batch to the latest table. */
    private void keepLatest(List<Target> targets) {
        if (!records.keepsLatest()) {
            return;
        }
        List<Target> written = new ArrayList<>();
        for (Target target : targets) {
            if (target.records != null && target.failure == null) {
                written.add(target);
            }
        }
        written.sort(Target.LATER_LAST);
        Map<String, Target> newest = new LinkedHashMap<>();
        for (Target target : written) {
            Record candidate = target.records.get(0);
            newest.merge(candidate.whatWhereKey().toString(), target,
                    (kept, next) -> kept.records.get(0).isNewerThan(candidate) ? kept : next);
        }
        List<Target> offered = new ArrayList<>(newest.values());
        List<Future<?>> pending = new ArrayList<>(offered.size());
        for (Target target : offered) {
            pending.add(executor.submit(() -> records.offerLatest(target.records.get(0))));
        }
        for (int i = 0; i < pending.size(); i++) {
            try {
                pending.get(i).get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while writing the latest table", e);
            } catch (java.util.concurrent.ExecutionException e) {
                offered.get(i).fail(Failures.classify(e, offered.get(i).event.url()));
            }
        }
    }

    /** Permanent failures go to the DLQ; one that cannot go there stays in SQS (never lost). */
    private void deadLetter(List<Job> jobs) {
        List<DeadLetter> letters = new ArrayList<>();
        Map<String, Job> byId = new HashMap<>();
        for (Job job : jobs) {
            if (job.outcome != null && job.outcome.permanent()) {
                letters.add(new DeadLetter(job.messageId(), job.message.getBody(), job.outcome));
                byId.put(job.messageId(), job);
            }
        }
        if (letters.isEmpty()) {
            return;
        }
        Map<String, String> unsent = deadLetters.send(letters);
        for (Map.Entry<String, String> entry : unsent.entrySet()) {
            Job job = byId.get(entry.getKey());
            if (job != null) {
                job.outcome = new Failure(ErrorKind.DLQ_UNAVAILABLE, "the message could not be ingested ("
                        + job.outcome.kind().label() + ") nor dead-lettered: " + entry.getValue());
            }
        }
    }

    /**
     * One report per settled message (transient ones are reported when they settle). A report that
     * cannot be published changes nothing else: the records stay written exactly once.
     */
    private int report(List<Job> jobs, long started, String requestId) {
        List<Report> settled = new ArrayList<>();
        for (Job job : jobs) {
            if (job.outcome != null && !job.outcome.permanent()) {
                continue;
            }
            double duration = (clock.millis() - started) / 1000.0;
            Metadata first = job.firstMetadata();
            StatusReport report = job.outcome == null
                    ? StatusReport.success(started, duration, job.fileRecords())
                    : StatusReport.error(started, duration, job.fileRecords(), job.outcome.message());
            settled.add(new Report(job.messageId(), report, first == null ? null : first.what()));
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

    /** One queue message and what became of it. */
    private static final class Job {
        final SQSMessage message;
        Notification notification;
        final List<Target> targets = new ArrayList<>(1);
        /** Null while (and when) the message succeeds. */
        Failure outcome;

        Job(SQSMessage message) {
            this.message = message;
        }

        String messageId() {
            return message.getMessageId();
        }

        /** Settles the outcome from the objects': any transient failure wins, then any permanent one. */
        void decide() {
            if (outcome != null) {
                return;
            }
            for (Target target : targets) {
                if (target.failure != null && !target.failure.permanent()) {
                    outcome = target.failure;
                    return;
                }
            }
            for (Target target : targets) {
                if (target.failure != null) {
                    outcome = target.failure;
                    return;
                }
            }
        }

        String status() {
            return outcome == null ? "success" : outcome.permanent() ? "error" : "retry";
        }

        /** The files this message ingested, once each (on error: those that did get in). */
        List<StatusReport.FileRecord> fileRecords() {
            List<StatusReport.FileRecord> files = new ArrayList<>(targets.size());
            for (Target target : targets) {
                if (target.records != null && target.failure == null) {
                    files.add(StatusReport.FileRecord.of(target.records.get(0)));
                }
            }
            return files;
        }

        /** The records of the files this message ingested (one per file and day bucket). */
        int recordCount() {
            int count = 0;
            for (Target target : targets) {
                if (target.records != null && target.failure == null) {
                    count += target.records.size();
                }
            }
            return count;
        }

        /** The records written on this message's behalf (a duplicate's go to the owning message). */
        int recordsWritten() {
            int written = 0;
            for (Target target : targets) {
                if (target.owner == this) {
                    written += target.written;
                }
            }
            return written;
        }

        Metadata firstMetadata() {
            for (Target target : targets) {
                if (target.metadata != null) {
                    return target.metadata;
                }
            }
            return null;
        }
    }

    /** One distinct object of the batch. */
    private static final class Target {
        /** Earlier objects first: LastModified, then the order of their owning events. */
        static final Comparator<Target> LATER_LAST = Comparator
                .comparingLong((Target t) -> t.records.get(0).createTime())
                .thenComparingInt(t -> t.order);

        ObjectEvent event;
        int order;
        Job owner;
        volatile Metadata metadata;
        volatile List<Record> records;
        volatile Failure failure;
        int written;

        /** Keeps the first failure: it is the cause, later ones are consequences. */
        synchronized void fail(Failure f) {
            if (failure == null) {
                failure = f;
            }
        }
    }
}
