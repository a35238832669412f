package datalake.ingester;

import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.ObjectEntry.State;
import datalake.dynamodb.RecordKey;
import datalake.records.Metadata;
import datalake.records.MetadataParser;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;

/**
 * Makes the index follow the bucket for a set of objects (docs/DESIGN.md, "The index follows the
 * bucket"). Whatever the event, the key's current state decides:
 * <ol>
 *   <li><b>Observe and commit</b> (concurrently): HEAD the key; build the records of an object with
 *       valid metadata; commit the observation to its per-object entry, unless a later observation is
 *       committed already (then that observation's handler does the work). The commit hands back the
 *       entry it replaced, whose keys it moved to the entry's stale keys in the same write.</li>
 *   <li><b>Write</b> the records of the indexed objects, BatchWriteItem, no key twice.</li>
 *   <li><b>Remove</b> the stale keys that the current state has not, each deleted only while it holds
 *       this object's URL.</li>
 *   <li><b>Offer</b> the newest file of each what:where to the latest table (a conditional write), except
 *       the files a consistent read of their entries, made for those the sandbox expects to lose, shows
 *       to be older ({@link LatestUpkeep}).</li>
 *   <li><b>Check</b> (one consistent BatchGetItem) that each entry is still this commit. A later commit
 *       may have come between ours and our writes, so that a write of ours landed after its deletes:
 *       every key this handler touched is then aligned with the later entry (rewritten from it, or
 *       deleted), and checked again. Otherwise the stale keys, now deleted, are forgotten.</li>
 *   <li><b>Tidy the latest table</b>: an entry that still names this object in a state it no longer has
 *       is recomputed from the day buckets, or removed.</li>
 * </ol>
 * Concurrent handlers of one key therefore converge on the last observation, which is the bucket's
 * state: the handler of the last change observes after it, and a later observation always wins.
 */
final class ObjectSync {
    /** Rounds of aligning with a later entry before giving the message back to SQS. */
    static final int MAX_REPAIR_ROUNDS = 4;
    /** How long the entry of a removed object is kept: far longer than any handler's observation is in flight. */
    static final long TOMBSTONE_SECONDS = 7 * 86_400L;

    private final ObjectStore objects;
    private final RecordsTable records;
    private final ObjectIndex index;
    private final LatestTable latest;
    private final RecordFactory factory;
    private final Concurrency concurrency;
    private final LatestUpkeep latestUpkeep;
    private final Clock clock;

    ObjectSync(ObjectStore objects, RecordsTable records, ObjectIndex index, LatestTable latest, RecordFactory factory,
            ExecutorService executor, Clock clock) {
        this.objects = objects;
        this.records = records;
        this.index = index;
        this.latest = latest;
        this.factory = factory;
        this.concurrency = new Concurrency(executor);
        this.latestUpkeep = latest == null ? null : new LatestUpkeep(latest, records, factory, concurrency, clock);
        this.clock = clock;
    }

    /** Follows every object of the batch; failures are left on the objects, never thrown. */
    void sync(List<BatchObject> batch, Deadline deadline) {
        Map<String, Boolean> buckets = new ConcurrentHashMap<>();
        concurrency.each(batch, o -> observe(o, buckets), (o, f) -> o.fail(f));
        writeRecords(batch, deadline);
        concurrency.each(batch, this::removeStale, (o, f) -> o.fail(f));
        if (latest != null) {
            latestUpkeep.offer(batch);
        }
        check(batch, deadline);
        if (latest != null) {
            concurrency.each(batch, latestUpkeep::tidy, (o, f) -> o.fail(f));
        }
    }

    // ---------------------------------------------------------------- observe and commit

    private void observe(BatchObject o, Map<String, Boolean> buckets) {
        o.observedAt = micros(clock.instant());
        StoredObject stored;
        try {
            stored = objects.head(o.event.bucket(), o.event.key());
        } catch (RuntimeException e) {
            Failure failure = Failures.classify(e, o.event.url());
            if (failure.kind() != ErrorKind.NO_SUCH_KEY) {
                o.fail(failure);
                return;
            }
            if (!buckets.computeIfAbsent(o.event.bucket(), objects::bucketExists)) {
                o.fail(new Failure(ErrorKind.NO_SUCH_BUCKET, o.event.url() + ": the bucket does not exist."));
                return;
            }
            stored = o.event.alternateKey() == null ? null : alternate(o);
        }
        String url = o.event.url();
        State state;
        if (stored == null) {
            state = State.ABSENT;
        } else {
            try {
                o.metadata = metadataOf(url, stored);
                o.records = factory.records(o.metadata, url, stored.lastModified(), stored.size());
                state = State.INDEXED;
            } catch (RuntimeException e) {
                Failure failure = Failures.classify(e, url);
                o.fail(failure);
                if (!failure.permanent()) {
                    return;
                }
                // Present, but not a datalake file: reported as before, and nothing of it stays indexed.
                o.records = null;
                state = State.NOT_INDEXED;
            }
        }
        o.state = state;
        o.entry = entry(o, stored);
        o.commit = index.commit(o.entry);
        o.finishedAt = clock.millis();
    }

    /**
     * The object under the event's alternate key (EventBridge's form-decoded reading) when it exists and
     * the key as sent was never indexed; else null, and the key as sent stands.
     */
    private StoredObject alternate(BatchObject o) {
        ObjectEvent asSent = o.event;
        ObjectEvent decoded = asSent.withAlternateKey();
        Map<String, ObjectEntry> known = index.read(List.of(asSent.url(), decoded.url()));
        ObjectEntry sentEntry = known.get(asSent.url());
        if (sentEntry != null && sentEntry.indexed()) {
            return null;
        }
        try {
            StoredObject stored = objects.head(decoded.bucket(), decoded.key());
            o.event = decoded;
            return stored;
        } catch (RuntimeException e) {
            Failure failure = Failures.classify(e, decoded.url());
            if (failure.kind() != ErrorKind.NO_SUCH_KEY) {
                throw e;
            }
            ObjectEntry decodedEntry = known.get(decoded.url());
            if (decodedEntry != null && decodedEntry.indexed()) {
                o.event = decoded;
            }
            return null;
        }
    }

    private ObjectEntry entry(BatchObject o, StoredObject stored) {
        String url = o.event.url();
        String commitId = UUID.randomUUID().toString();
        String sequencer = o.event.sequencer();
        return switch (o.state) {
            case INDEXED -> new ObjectEntry(url, o.observedAt, commitId, State.INDEXED, o.metadata, stored.lastModified(),
                    stored.size(), stored.etag(), stored.versionId(), sequencer, keys(o.records), List.of(),
                    o.records.get(0).expiresAt());
            case NOT_INDEXED -> new ObjectEntry(url, o.observedAt, commitId, State.NOT_INDEXED, null, 0, 0,
                    stored.etag(), stored.versionId(), sequencer, List.of(), List.of(), null);
            case ABSENT -> new ObjectEntry(url, o.observedAt, commitId, State.ABSENT, null, 0, 0, null, null, sequencer,
                    List.of(), List.of(), o.observedAt / 1_000_000 + TOMBSTONE_SECONDS);
        };
    }

    static Metadata metadataOf(String url, StoredObject stored) {
        if (stored.datalakeMetadata() == null) {
            throw new MissingMetadataException(url);
        }
        return MetadataParser.parse(stored.datalakeMetadata());
    }

    static List<RecordKey> keys(List<Record> records) {
        List<RecordKey> keys = new ArrayList<>(records.size());
        for (Record record : records) {
            keys.add(RecordKey.of(record));
        }
        return keys;
    }

    private static long micros(Instant instant) {
        return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
    }

    // ---------------------------------------------------------------- write and remove

    /** Writes each key once: the record of the later object (LastModified, then order) wins. */
    private void writeRecords(List<BatchObject> batch, Deadline deadline) {
        List<BatchObject> ready = new ArrayList<>();
        for (BatchObject object : batch) {
            if (object.indexed()) {
                ready.add(object);
            }
        }
        ready.sort(BatchObject.LATER_LAST);
        Map<RecordKey, Record> winners = new LinkedHashMap<>();
        Map<RecordKey, BatchObject> owners = new HashMap<>();
        Map<RecordKey, List<BatchObject>> contributors = new HashMap<>();
        for (BatchObject object : ready) {
            for (Record record : object.records) {
                RecordKey key = RecordKey.of(record);
                winners.put(key, record);
                owners.put(key, object);
                contributors.computeIfAbsent(key, k -> new ArrayList<>(1)).add(object);
            }
        }
        if (winners.isEmpty()) {
            return;
        }
        for (Map.Entry<RecordKey, BatchObject> owner : owners.entrySet()) {
            owner.getValue().touched.add(owner.getKey());
        }
        Map<Record, Failure> failures = records.write(new ArrayList<>(winners.values()), deadline);
        long now = clock.millis();
        for (Map.Entry<RecordKey, Record> entry : winners.entrySet()) {
            Failure failure = failures.get(entry.getValue());
            if (failure == null) {
                owners.get(entry.getKey()).written++;
            } else {
                // Nobody's version of this key is stored: every object that has it must come again.
                for (BatchObject object : contributors.get(entry.getKey())) {
                    object.fail(failure);
                }
            }
        }
        for (BatchObject object : ready) {
            object.finishedAt = now;
        }
    }

    /** Deletes what the previous states left and this one has not (only while it holds this object's URL). */
    private void removeStale(BatchObject o) {
        ObjectEntry previous = o.previous();
        if (!o.committed() || previous == null || transientlyFailed(o)) {
            return;
        }
        Set<RecordKey> stale = new LinkedHashSet<>(previous.staleKeys());
        stale.addAll(previous.recordKeys());
        o.entry.recordKeys().forEach(stale::remove);
        if (stale.isEmpty()) {
            return;
        }
        o.touched.addAll(stale);
        o.removed = index.removeRecords(o.entry.url(), stale); // once per object and batch
        o.finishedAt = clock.millis();
    }

    // ---------------------------------------------------------------- check and repair

    /** Reads back every committed entry; aligns the keys of those a later commit superseded. */
    private void check(List<BatchObject> batch, Deadline deadline) {
        List<BatchObject> committed = new ArrayList<>();
        Set<String> urls = new LinkedHashSet<>();
        for (BatchObject object : batch) {
            if (object.committed()) {
                committed.add(object);
                urls.add(object.entry.url());
            }
        }
        if (committed.isEmpty()) {
            return;
        }
        Map<String, ObjectEntry> current;
        try {
            current = index.read(urls);
        } catch (RuntimeException e) {
            Failure failure = Failures.classify(e, null);
            committed.forEach(o -> o.fail(failure));
            return;
        }
        concurrency.each(committed, o -> {
            ObjectEntry now = current.get(o.entry.url());
            if (now == null) {
                o.fail(new Failure(ErrorKind.CONTENTION, o.entry.url() + ": its per-object item disappeared while it was indexed."));
            } else if (now.commitId().equals(o.entry.commitId())) {
                ObjectEntry previous = o.previous();
                if (previous != null && !transientlyFailed(o)
                        && (!previous.recordKeys().isEmpty() || !previous.staleKeys().isEmpty())) {
                    index.clearStale(o.entry.url(), o.entry.commitId());
                }
            } else {
                repair(o, now, deadline);
            }
            o.finishedAt = clock.millis();
        }, (o, f) -> o.fail(f));
    }

    /**
     * A later observation was committed after ours: every key this handler touched is made what that
     * entry says (its record, or nothing), until the entry stays the same across a round.
     */
    private void repair(BatchObject o, ObjectEntry later, Deadline deadline) {
        String url = o.entry.url();
        ObjectEntry target = later;
        for (int round = 0; round < MAX_REPAIR_ROUNDS; round++) {
            Map<RecordKey, Record> wanted = new HashMap<>();
            for (Record record : target.records(factory)) {
                wanted.put(RecordKey.of(record), record);
            }
            List<Record> rewrite = new ArrayList<>();
            List<RecordKey> delete = new ArrayList<>();
            for (RecordKey key : o.touched) {
                Record record = wanted.get(key);
                if (record != null) {
                    rewrite.add(record);
                } else {
                    delete.add(key);
                }
            }
            if (!rewrite.isEmpty()) {
                Map<Record, Failure> failures = records.write(rewrite, deadline);
                if (!failures.isEmpty()) {
                    o.fail(failures.values().iterator().next());
                    return;
                }
            }
            if (!delete.isEmpty()) {
                index.removeRecords(url, delete);
            }
            ObjectEntry again = index.read(List.of(url)).get(url);
            if (again != null && again.commitId().equals(target.commitId())) {
                o.superseded = target;
                return;
            }
            if (again == null) {
                break;
            }
            target = again;
        }
        o.fail(new Failure(ErrorKind.CONTENTION, url + ": the object kept changing while its records were aligned;"
                + " SQS delivers the message again."));
    }

    static boolean transientlyFailed(BatchObject o) {
        Failure failure = o.failure;
        return failure != null && !failure.permanent();
    }
}
