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
import java.util.Optional;
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
 *       deleted), and checked again.</li>
 *   <li><b>Tidy the latest table</b>: an entry that still names this object in a state it no longer has
 *       is recomputed from the day buckets, or removed.</li>
 *   <li><b>Forget</b> the stale keys, now deleted, and the replaced file, now tidied and reported, when
 *       every step succeeded before the deadline: until then the entry keeps them for the next handler of
 *       the key, a redelivery of this message included.</li>
 * </ol>
 * Concurrent handlers of one key therefore converge on the last observation, which is the bucket's
 * state: the handler of the last change observes after it, and a later observation always wins.
 *
 * <p>No step of an object (HEAD, commit, write, delete, offer, tidy, forget) starts after the deadline,
 * and none of their SDK calls outlives it ({@link CallDeadline}): the object fails as
 * {@link ErrorKind#TIME_BUDGET} instead, and what it left undone stays in its entry for the next delivery
 * (only a forget left undone or cut short fails nothing).
 * Past the deadline run only the check, whose read-back finds late writes and whose repair deletes them,
 * in the first half of the margin the handler keeps, and then the batch's settlement, by the invocation's end.
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

    /**
     * Follows every object of the batch; failures are left on the outcomes, never thrown.
     *
     * @return each object's outcome, in the order given
     */
    List<ObjectOutcome> sync(List<BatchObject> objects, Deadline deadline) {
        List<ObjectOutcome> batch = new ArrayList<>(objects.size());
        objects.forEach(o -> batch.add(ObjectOutcome.of(o)));
        Map<String, Boolean> buckets = new ConcurrentHashMap<>();
        List<ObjectOutcome> offered = CallDeadline.within(deadline, () -> {
            List<ObjectOutcome> observed = concurrency.each(batch, o -> observe(o, buckets, deadline));
            List<ObjectOutcome> written = writeRecords(observed, deadline);
            List<ObjectOutcome> cleaned = concurrency.each(written, o -> removeStale(o, deadline));
            return latest == null ? cleaned : latestUpkeep.offer(cleaned, deadline);
        });
        List<ObjectOutcome> checked = CallDeadline.within(deadline.checkBy(), () -> check(offered, deadline));
        return CallDeadline.within(deadline, () -> {
            List<ObjectOutcome> tidied = latest == null ? checked
                    : concurrency.each(checked, o -> latestUpkeep.tidy(o, deadline));
            return concurrency.each(tidied, o -> forget(o, deadline));
        });
    }

    // ---------------------------------------------------------------- observe and commit

    private ObjectOutcome observe(ObjectOutcome o, Map<String, Boolean> buckets, Deadline deadline) {
        ObjectEvent event = o.object().event();
        if (deadline.passed()) {
            return o.failed(Failures.outOfTime(event.url(), "it was followed"));
        }
        long observedAt = micros(clock.instant());
        StoredObject stored;
        try {
            stored = objects.head(event.bucket(), event.key()).orElse(null);
        } catch (RuntimeException e) {
            return o.failed(Failures.classify(e, event.url()));
        }
        if (stored == null) {
            if (!buckets.computeIfAbsent(event.bucket(), objects::bucketExists)) {
                return o.failed(new Failure(ErrorKind.NO_SUCH_BUCKET, event.url() + ": the bucket does not exist."));
            }
            if (event.alternateKey() != null) {
                Head head = alternate(event);
                event = head.event();
                stored = head.stored();
            }
        }
        String url = event.url();
        State state;
        Metadata metadata = null;
        List<Record> records = null;
        ObjectOutcome judged = o;
        if (stored == null) {
            state = State.ABSENT;
        } else {
            try {
                metadata = metadataOf(url, stored);
                records = factory.records(metadata, url, stored.lastModified(), stored.size());
                state = State.INDEXED;
            } catch (RuntimeException e) {
                Failure failure = Failures.classify(e, url);
                judged = o.failed(failure);
                if (!failure.permanent()) {
                    return judged.observed(new Observation(event, observedAt, null, metadata, null, null));
                }
                // Present, but not a datalake file: reported as before, and nothing of it stays indexed.
                records = null;
                state = State.NOT_INDEXED;
            }
        }
        ObjectEntry entry = entry(event, observedAt, state, metadata, records, stored);
        ObjectOutcome seen = judged.observed(new Observation(event, observedAt, state, metadata, records, entry));
        if (deadline.passed()) {
            return seen.failed(Failures.outOfTime(url, "its observation was committed"));
        }
        try {
            return seen.committed(index.commit(entry), clock.millis());
        } catch (RuntimeException e) {
            return seen.failed(Failures.classify(e, url)); // the observation stays: the message's log names the file
        }
    }

    /** The object HEAD found under an event's key (null: none). */
    private record Head(ObjectEvent event, StoredObject stored) {
    }

    /**
     * The object under the event's alternate key (EventBridge's form-decoded reading) when it exists and
     * the key as sent was never indexed; else none, and the key as sent stands.
     */
    private Head alternate(ObjectEvent asSent) {
        ObjectEvent decoded = asSent.withAlternateKey();
        Map<String, ObjectEntry> known = index.read(List.of(asSent.url(), decoded.url()));
        ObjectEntry sentEntry = known.get(asSent.url());
        if (sentEntry != null && sentEntry.indexed()) {
            return new Head(asSent, null);
        }
        Optional<StoredObject> stored = objects.head(decoded.bucket(), decoded.key());
        if (stored.isPresent()) {
            return new Head(decoded, stored.get());
        }
        ObjectEntry decodedEntry = known.get(decoded.url());
        return new Head(decodedEntry != null && decodedEntry.indexed() ? decoded : asSent, null);
    }

    private static ObjectEntry entry(ObjectEvent event, long observedAt, State state, Metadata metadata,
            List<Record> records, StoredObject stored) {
        String url = event.url();
        String commitId = UUID.randomUUID().toString();
        String sequencer = event.sequencer();
        return switch (state) {
            case INDEXED -> new ObjectEntry(url, observedAt, commitId, State.INDEXED, metadata, stored.lastModified(),
                    stored.size(), stored.etag(), stored.versionId(), sequencer, keys(records), List.of(),
                    records.get(0).expiresAt());
            case NOT_INDEXED -> new ObjectEntry(url, observedAt, commitId, State.NOT_INDEXED, null, 0, 0,
                    stored.etag(), stored.versionId(), sequencer, List.of(), List.of(), null);
            case ABSENT -> new ObjectEntry(url, observedAt, commitId, State.ABSENT, null, 0, 0, null, null, sequencer,
                    List.of(), List.of(), observedAt / 1_000_000 + TOMBSTONE_SECONDS);
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

    /** Writes each key once: the record of the later object (LastModified, then place in the batch) wins. */
    private List<ObjectOutcome> writeRecords(List<ObjectOutcome> batch, Deadline deadline) {
        List<ObjectOutcome> ready = new ArrayList<>();
        for (ObjectOutcome object : batch) {
            if (object.stored()) {
                ready.add(object);
            }
        }
        ready.sort(ObjectOutcome.LATER_LAST);
        Map<RecordKey, Record> winners = new LinkedHashMap<>();
        Map<RecordKey, String> owners = new HashMap<>();
        Map<RecordKey, List<String>> contributors = new HashMap<>();
        for (ObjectOutcome object : ready) {
            for (Record record : object.observation().records()) {
                RecordKey key = RecordKey.of(record);
                winners.put(key, record);
                owners.put(key, object.key());
                contributors.computeIfAbsent(key, k -> new ArrayList<>(1)).add(object.key());
            }
        }
        if (winners.isEmpty()) {
            return batch;
        }
        if (deadline.passed()) {
            return ObjectOutcome.replace(batch, ready.stream()
                    .map(o -> o.failed(Failures.outOfTime(o.url(), "its records were written"))).toList());
        }
        Map<String, List<RecordKey>> owned = new HashMap<>();
        owners.forEach((key, owner) -> owned.computeIfAbsent(owner, k -> new ArrayList<>()).add(key));
        Map<Record, Failure> failures = records.write(new ArrayList<>(winners.values()), deadline);
        long now = clock.millis();
        Map<String, ObjectOutcome> after = new HashMap<>();
        Map<String, Integer> written = new HashMap<>();
        for (ObjectOutcome object : ready) {
            after.put(object.key(), object.touching(owned.getOrDefault(object.key(), List.of())).finished(now));
        }
        for (Map.Entry<RecordKey, Record> entry : winners.entrySet()) {
            Failure failure = failures.get(entry.getValue());
            if (failure == null) {
                written.merge(owners.get(entry.getKey()), 1, Integer::sum);
            } else {
                // Nobody's version of this key is stored: every object that has it must come again.
                for (String object : contributors.get(entry.getKey())) {
                    after.computeIfPresent(object, (k, o) -> o.failed(failure));
                }
            }
        }
        written.forEach((object, count) -> after.computeIfPresent(object, (k, o) -> o.wrote(count)));
        return ObjectOutcome.replace(batch, after.values());
    }

    /** Deletes what the previous states left and this one has not (only while it holds this object's URL). */
    private ObjectOutcome removeStale(ObjectOutcome o, Deadline deadline) {
        ObjectEntry previous = o.previous();
        if (!o.committed() || previous == null || o.transientlyFailed()) {
            return o;
        }
        List<RecordKey> stale = o.entry().over(previous).staleKeys();
        if (stale.isEmpty()) {
            return o;
        }
        if (deadline.passed()) {
            return o.failed(Failures.outOfTime(o.url(), "the records of its earlier state were deleted"));
        }
        ObjectOutcome touching = o.touching(stale); // touched even if the deletes fail half-way: check aligns them
        try {
            return touching.removedRecords(index.removeRecords(o.entry().url(), stale)).finished(clock.millis());
        } catch (RuntimeException e) {
            return touching.failed(Failures.classify(e, o.url()));
        }
    }

    // ---------------------------------------------------------------- check and repair

    /** Reads back every committed entry; aligns the keys of those a later commit superseded. */
    private List<ObjectOutcome> check(List<ObjectOutcome> batch, Deadline deadline) {
        List<ObjectOutcome> committed = new ArrayList<>();
        Set<String> urls = new LinkedHashSet<>();
        for (ObjectOutcome object : batch) {
            if (object.committed()) {
                committed.add(object);
                urls.add(object.entry().url());
            }
        }
        if (committed.isEmpty()) {
            return batch;
        }
        Map<String, ObjectEntry> current;
        try {
            current = index.read(urls);
        } catch (RuntimeException e) {
            Failure failure = Failures.classify(e, null);
            return ObjectOutcome.replace(batch, committed.stream().map(o -> o.failed(failure)).toList());
        }
        return ObjectOutcome.replace(batch, concurrency.each(committed,
                o -> check(o, current.get(o.entry().url()), deadline).finished(clock.millis())));
    }

    private ObjectOutcome check(ObjectOutcome o, ObjectEntry now, Deadline deadline) {
        if (now == null) {
            return o.failed(new Failure(ErrorKind.CONTENTION,
                    o.entry().url() + ": its per-object item disappeared while it was indexed."));
        }
        if (!now.commitId().equals(o.entry().commitId())) {
            return repair(o, now, deadline);
        }
        return o;
    }

    /**
     * Clears what the commit left for its handler, once the handler is done with it. Past the deadline the
     * object is done all the same: what the entry holds is only deleted or dealt with, and the next commit
     * of the key takes it over (deleting again changes nothing), so it stays, and the object succeeds.
     */
    private ObjectOutcome forget(ObjectOutcome o, Deadline deadline) {
        if (!o.committed() || o.transientlyFailed() || o.superseded() != null
                || !o.entry().over(o.previous()).unfinished() || deadline.passed()) {
            return o;
        }
        try {
            index.clearStale(o.entry().url(), o.entry().commitId());
        } catch (RuntimeException e) {
            if (Failures.classify(e, o.url()).kind() == ErrorKind.TIME_BUDGET) {
                return o; // cut short at the deadline: as a forget not started, the next commit takes it over
            }
            throw e;
        }
        return o.finished(clock.millis());
    }

    /**
     * A later observation was committed after ours: every key this handler touched is made what that
     * entry says (its record, or nothing), until the entry stays the same across a round.
     */
    private ObjectOutcome repair(ObjectOutcome o, ObjectEntry later, Deadline deadline) {
        String url = o.entry().url();
        ObjectEntry target = later;
        for (int round = 0; round < MAX_REPAIR_ROUNDS; round++) {
            Map<RecordKey, Record> wanted = new HashMap<>();
            for (Record record : target.records(factory)) {
                wanted.put(RecordKey.of(record), record);
            }
            List<Record> rewrite = new ArrayList<>();
            List<RecordKey> delete = new ArrayList<>();
            for (RecordKey key : o.touched()) {
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
                    return o.failed(failures.values().iterator().next());
                }
            }
            if (!delete.isEmpty()) {
                index.removeRecords(url, delete);
            }
            ObjectEntry again = index.read(List.of(url)).get(url);
            if (again != null && again.commitId().equals(target.commitId())) {
                return o.supersededBy(target);
            }
            if (again == null) {
                break;
            }
            target = again;
        }
        return o.failed(new Failure(ErrorKind.CONTENTION, url + ": the object kept changing while its records were aligned;"
                + " SQS delivers the message again."));
    }

}
