package datalake.tools;

import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.RecordKey;
import datalake.ingester.Ingester;
import datalake.ingester.IngesterConfig;
import datalake.ingester.StoredIndex;
import datalake.ingester.StoredObject;
import datalake.records.Metadata;
import datalake.records.MetadataParser;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Compares a bucket (every object under a prefix, HEADed for its metadata) with the index (the records
 * table and the latest table) and names the drift; with {@code fix}, repairs each finding
 * ({@link DriftRepair}: the ingester's own code path, then what that path cannot know of).
 */
final class Reconcile {
    /** The kinds of drift, in the order the counts line gives them. */
    enum Drift {
        /** An object with datalake metadata that has no record. */
        MISSING("missing"),
        /** Records whose object is no longer in the bucket. */
        ORPHANED("orphaned"),
        /** Records that are not what the object's metadata makes (other ids, times, sizes; or not a datalake file). */
        DIFFERING("differing"),
        /** Records right, but the object's per-object item absent or out of date (indexed before it existed). */
        UNTRACKED("untracked"),
        /** A latest-table entry whose file is not in the index. */
        STALE_LATEST("stale_latest"),
        /** A WHAT and WHERE with files in the index but no latest-table entry: /feeds and latest miss it. */
        MISSING_LATEST("missing_latest");

        final String label;

        Drift(String label) {
            this.label = label;
        }
    }

    record Finding(Drift drift, String url, String detail) {
    }

    /** A finding whose repair failed, and why. */
    record Unfixed(Finding finding, String reason) {
    }

    /** Objects with invalid datalake metadata the output names (the rest are counted). */
    static final int KEPT_INVALID = 100;

    /**
     * @param objects    objects listed under the prefix
     * @param invalid    objects whose datalake metadata is invalid: never indexed, so not drift
     * @param invalidObjects the first {@value #KEPT_INVALID} of them, each {@code url: reason}
     * @param fixed      whether the findings were repaired ({@code --fix})
     * @param unfixed    findings whose repair failed, with why
     */
    record Result(List<Finding> findings, long objects, long invalid, List<String> invalidObjects, boolean fixed,
            List<Unfixed> unfixed, Duration elapsed) {
        static long count(List<Finding> findings, Drift drift) {
            return findings.stream().filter(f -> f.drift() == drift).count();
        }

        /** Findings repaired. */
        int repaired() {
            return fixed ? findings.size() - unfixed.size() : 0;
        }

        /** The drift after the run: all of it, or after a fix what the repairs left (those that failed). */
        List<Finding> left() {
            return fixed ? unfixed.stream().map(Unfixed::finding).toList() : findings;
        }

        /** The drift found, as counts. */
        String foundLine() {
            return counts(findings);
        }

        /**
         * The last line: the drift counts after the run (after a fix, computed from the repairs: a finding
         * whose repair failed is still drift), for a scheduled job to alert on.
         */
        String countsLine() {
            return counts(left());
        }

        private static String counts(List<Finding> findings) {
            StringBuilder line = new StringBuilder();
            for (Drift drift : Drift.values()) {
                line.append(line.isEmpty() ? "" : " ").append(drift.label).append('=').append(count(findings, drift));
            }
            return line.toString();
        }
    }

    private final S3Client s3;
    private final DynamoDbClient dynamoDb;
    private final IngesterConfig config;
    private final StoredIndex index;
    private final RecordFactory factory;
    private final Ingester ingester;
    private final Clock clock;
    private final int concurrency;
    final AtomicLong listed = new AtomicLong();
    final AtomicLong checked = new AtomicLong();
    volatile String phase = "reading the index";

    /**
     * Checks the configuration's tables (read whole, with the DynamoDB client) against the bucket (with S3's);
     * {@code clock} is the local one, and a fix takes its days from AWS's ({@link AwsClock}).
     */
    Reconcile(S3Client s3, DynamoDbClient dynamoDb, IngesterConfig config, StoredIndex index, Ingester ingester,
            RecordFactory factory, Clock clock, int concurrency) {
        this.s3 = s3;
        this.dynamoDb = dynamoDb;
        this.config = config;
        this.index = index;
        this.factory = factory;
        this.ingester = ingester;
        this.clock = clock;
        this.concurrency = concurrency;
    }

    String progressLine() {
        return Progress.bar(checked.get(), listed.get()) + String.format(Locale.ROOT,
                " %s | objects listed %,d | checked %,d", phase, listed.get(), checked.get());
    }

    /** What the bucket says one object should have in the index. */
    private record Expected(String url, Map<RecordKey, Record> records, String problem, boolean invalid) {
    }

    Result run(Target target, boolean fix) {
        long started = clock.millis();
        IndexSnapshot snapshot = IndexSnapshot.read(dynamoDb, config.recordsTable(), config.latestTable(), target);
        Map<String, IndexSnapshot.Stored> records = new HashMap<>(snapshot.records);
        Map<String, IndexSnapshot.Stored> allRecords = Map.copyOf(snapshot.records);
        Map<RecordKey, Record> byKey = new HashMap<>();
        allRecords.values().forEach(stored -> stored.records().forEach(r -> byKey.put(RecordKey.of(r), r)));
        // Objects whose records a copy holds (a copy keeps the id, so its records have the same keys, and
        // the later object holds them): no drift while that copy is in the bucket.
        Map<String, String> heldByCopy = new HashMap<>();
        phase = "checking the bucket";
        List<Finding> findings = Collections.synchronizedList(new ArrayList<>());
        long invalid = 0;
        List<String> invalidObjects = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(concurrency, r -> {
            Thread thread = new Thread(r, "reconcile");
            thread.setDaemon(true);
            return thread;
        });
        try {
            String token = null;
            do {
                String continuation = token;
                ListObjectsV2Response page = s3.listObjectsV2(r -> r.bucket(target.bucket()).prefix(target.prefix())
                        .continuationToken(continuation));
                listed.addAndGet(page.contents().size());
                List<Future<Expected>> heads = new ArrayList<>();
                for (S3Object object : page.contents()) {
                    heads.add(pool.submit(() -> expected(target.bucket(), object.key())));
                }
                for (Future<Expected> head : heads) {
                    Expected expected = get(head);
                    checked.incrementAndGet();
                    if (expected == null) {
                        continue; // deleted since the listing: the index's records of it are orphans
                    }
                    if (expected.invalid()) {
                        invalid++;
                        if (invalidObjects.size() < KEPT_INVALID) {
                            invalidObjects.add(expected.url() + ": " + expected.problem());
                        }
                    }
                    IndexSnapshot.Stored stored = records.remove(expected.url());
                    String holder = stored == null ? copyHolding(expected, byKey) : null;
                    if (holder != null) {
                        heldByCopy.put(expected.url(), holder);
                    } else {
                        compare(expected, stored, snapshot.entries.get(expected.url()), findings);
                    }
                }
                token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
            } while (token != null);
        } finally {
            pool.shutdownNow();
        }
        for (Map.Entry<String, IndexSnapshot.Stored> orphan : records.entrySet()) {
            findings.add(new Finding(Drift.ORPHANED, orphan.getKey(), orphan.getValue().keys().size()
                    + " record(s), but the object is not in the bucket"));
        }
        heldByCopy.forEach((url, holder) -> {
            if (records.containsKey(holder)) {
                findings.add(new Finding(Drift.MISSING, url, "not in the index: its copy " + holder
                        + " held its records and is not in the bucket"));
            }
        });
        Set<String> orphaned = new HashSet<>(records.keySet());
        for (Record entry : snapshot.latest) {
            IndexSnapshot.Stored stored = allRecords.get(entry.url());
            boolean dangling = stored == null || orphaned.contains(entry.url()) || stored.records().stream()
                    .noneMatch(r -> r.createTime() == entry.createTime() && r.metadata().equals(entry.metadata()));
            if (dangling) {
                findings.add(new Finding(Drift.STALE_LATEST, entry.url(), "the latest " + entry.whatWhereKey()
                        + " names a file that is not in the index"));
            }
        }
        missingLatest(allRecords, orphaned, snapshot.latestKeys, findings);
        List<Finding> sorted = new ArrayList<>(findings);
        sorted.sort(Comparator.comparing(Finding::drift).thenComparing(Finding::url));
        List<Unfixed> unfixed = new ArrayList<>();
        if (fix) {
            phase = "fixing";
            // a restored latest entry reads the day buckets up to tomorrow: AWS's, not a workstation's
            DriftRepair repair = new DriftRepair(ingester, index, factory,
                    AwsClock.of(dynamoDb, config.recordsTable(), clock));
            for (Finding finding : sorted) {
                try {
                    repair.fix(finding, target, allRecords.get(finding.url()), snapshot.latest);
                } catch (RuntimeException e) {
                    unfixed.add(new Unfixed(finding, e.getMessage()));
                }
            }
        }
        return new Result(sorted, listed.get(), invalid, invalidObjects, fix, unfixed,
                Duration.ofMillis(clock.millis() - started));
    }

    /**
     * A finding for each WHAT and WHERE with files in the index (of objects still in the bucket) and no
     * latest entry, naming its newest file (greater start, then greater create_time, as the table orders
     * them): the one {@code --fix} follows, so that the ingester offers it as it offers every file.
     */
    private static void missingLatest(Map<String, IndexSnapshot.Stored> records, Set<String> orphaned,
            Set<String> latestKeys, List<Finding> findings) {
        Map<String, Record> newest = new TreeMap<>();
        records.forEach((url, stored) -> {
            if (!orphaned.contains(url)) {
                stored.records().forEach(r -> newest.merge(r.whatWhereKey().toString(), r,
                        (kept, next) -> kept.isNewerThan(next) ? kept : next));
            }
        });
        newest.forEach((whatWhere, file) -> {
            if (!latestKeys.contains(whatWhere)) {
                findings.add(new Finding(Drift.MISSING_LATEST, file.url(), "no latest entry for " + whatWhere
                        + ", whose newest file this is"));
            }
        });
    }

    /** HEADs one object: the records its metadata makes, or none (and why); null when it is gone. */
    private Expected expected(String bucket, String key) {
        String url = "s3://" + bucket + "/" + key;
        StoredObject stored = index.head(bucket, key).orElse(null);
        if (stored == null) {
            return null;
        }
        if (stored.datalakeMetadata() == null) {
            return new Expected(url, Map.of(), "no datalake metadata", false);
        }
        try {
            Metadata metadata = MetadataParser.parse(stored.datalakeMetadata());
            Map<RecordKey, Record> records = new HashMap<>();
            for (Record record : factory.records(metadata, url, stored.lastModified(), stored.size())) {
                records.put(RecordKey.of(record), record);
            }
            return new Expected(url, records, null, false);
        } catch (RuntimeException e) {
            return new Expected(url, Map.of(), "invalid datalake metadata (" + e.getMessage() + ")", true);
        }
    }

    /**
     * The URL of another object whose records are every record this object's metadata makes, by key and
     * metadata (a copy of it: a copy keeps the id), or null.
     */
    private static String copyHolding(Expected expected, Map<RecordKey, Record> byKey) {
        String holder = null;
        for (Map.Entry<RecordKey, Record> want : expected.records().entrySet()) {
            Record held = byKey.get(want.getKey());
            if (held == null || held.url().equals(expected.url()) || !held.metadata().equals(want.getValue().metadata())
                    || (holder != null && !holder.equals(held.url()))) {
                return null;
            }
            holder = held.url();
        }
        return holder;
    }

    private static void compare(Expected expected, IndexSnapshot.Stored stored, ObjectEntry entry, List<Finding> findings) {
        String url = expected.url();
        boolean indexed = stored != null && !stored.keys().isEmpty();
        if (expected.records().isEmpty()) {
            if (indexed) {
                findings.add(new Finding(Drift.DIFFERING, url, stored.keys().size()
                        + " record(s), but the object is not a datalake file: " + expected.problem()));
            }
            return;
        }
        if (!indexed) {
            findings.add(new Finding(Drift.MISSING, url, "not in the index ("
                    + expected.records().size() + " record(s) expected)"));
            return;
        }
        String difference = RecordDifference.of(expected.records(), stored);
        if (difference != null) {
            findings.add(new Finding(Drift.DIFFERING, url, difference));
            return;
        }
        Metadata metadata = expected.records().values().iterator().next().metadata();
        if (entry == null || !entry.indexed() || !entry.metadata().equals(metadata)
                || !new HashSet<>(entry.recordKeys()).equals(expected.records().keySet())) {
            findings.add(new Finding(Drift.UNTRACKED, url, entry == null ? "no per-object item"
                    : "its per-object item is out of date"));
        }
    }

    private static <T> T get(Future<T> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking the bucket", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }
}
