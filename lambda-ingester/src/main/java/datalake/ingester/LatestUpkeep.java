package datalake.ingester;

import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.ObjectEntry.State;
import datalake.dynamodb.RecordItems;
import datalake.dynamodb.StoredRecord;
import datalake.records.Keys.WhatWhereKey;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The latest table's part of following objects ({@link ObjectSync}): the newest file of each what:where
 * offered, and, once the commits are checked, entries that name an object in a state it no longer has
 * (removed, overwritten, or written by a handler a later one superseded) replaced by the newest file of
 * the day buckets, or removed.
 */
final class LatestUpkeep {
    /** How far back the day buckets are read for a latest-table entry whose file left the index. */
    static final int LOOKBACK_DAYS = 90;

    private final LatestTable latest;
    private final RecordsTable records;
    private final RecordFactory factory;
    private final Concurrency concurrency;
    private final Clock clock;
    /** Per sandbox: which offers deserve a read first. */
    private final LatestHints hints = new LatestHints();

    LatestUpkeep(LatestTable latest, RecordsTable records, RecordFactory factory, Concurrency concurrency, Clock clock) {
        this.latest = latest;
        this.records = records;
        this.factory = factory;
        this.concurrency = concurrency;
        this.clock = clock;
    }

    /** Offers the newest file of each what:where among the objects stored here, unless the deadline has passed. */
    List<ObjectOutcome> offer(List<ObjectOutcome> batch, Deadline deadline) {
        List<ObjectOutcome> written = new ArrayList<>();
        for (ObjectOutcome object : batch) {
            if (object.stored()) {
                written.add(object);
            }
        }
        written.sort(ObjectOutcome.LATER_LAST);
        Map<String, ObjectOutcome> newest = new LinkedHashMap<>();
        for (ObjectOutcome object : written) {
            Record candidate = object.observation().file();
            newest.merge(candidate.whatWhereKey().toString(), object,
                    (kept, next) -> kept.observation().file().isNewerThan(candidate) ? kept : next);
        }
        List<ObjectOutcome> offers = new ArrayList<>(newest.values());
        List<ObjectOutcome> decided = new ArrayList<>();
        for (ObjectOutcome loser : deadline.passed() ? List.<ObjectOutcome>of() : certainLosers(offers)) {
            offers.remove(loser);
            decided.add(loser.offered(false));
        }
        decided.addAll(concurrency.each(offers, o -> {
            if (deadline.passed()) {
                return o.failed(Failures.outOfTime(o.url(), "its file was offered to the latest table"));
            }
            Record candidate = o.observation().file();
            boolean taken = latest.offer(candidate);
            hints.offered(candidate, taken);
            return o.offered(taken).finished(clock.millis());
        }));
        return ObjectOutcome.replace(batch, decided);
    }

    /**
     * The offers that a consistent read proves cannot win: a file older than its entry (files arriving
     * out of order, a backfill) would only fail its condition, still paying a write unit. Only offers
     * that the hints expect to lose are read, in one call; whatever the read does not settle is offered.
     * Sound under concurrent removals: our records are written before this read, so an entry recomputed
     * after it finds our file in the day buckets.
     */
    private List<ObjectOutcome> certainLosers(List<ObjectOutcome> offers) {
        Map<WhatWhereKey, ObjectOutcome> doubtful = new LinkedHashMap<>();
        for (ObjectOutcome o : offers) {
            if (!hints.mayWin(o.observation().file())) {
                doubtful.put(o.observation().file().whatWhereKey(), o);
            }
        }
        if (doubtful.isEmpty()) {
            return List.of();
        }
        Map<WhatWhereKey, Record> entries;
        try {
            entries = latest.current(doubtful.keySet());
        } catch (RuntimeException e) {
            return List.of(); // the offers themselves will meet whatever went wrong, and be classified
        }
        List<ObjectOutcome> losers = new ArrayList<>();
        doubtful.forEach((key, o) -> {
            Record entry = entries.get(key);
            hints.is(key, entry);
            if (entry != null && !o.observation().file().isNewerThan(entry)) {
                losers.add(o);
            }
        });
        return losers;
    }

    /**
     * An entry that names this object in a state it no longer has (removed, overwritten, or written by a
     * handler a later one superseded) is replaced by the newest file of the day buckets, or removed. The
     * entries looked at are those of every file the index may still hold of the object: the replaced
     * entry's, and those whose keys it keeps as stale, which a handler that stopped after its commit left
     * (when this message's earlier delivery did, the replaced entry is that delivery's own).
     */
    ObjectOutcome tidy(ObjectOutcome o, Deadline deadline) {
        if (!o.committed() || o.transientlyFailed()) {
            return o;
        }
        ObjectEntry now = o.superseded() != null ? o.superseded() : o.entry();
        ObjectEntry previous = o.previous();
        Set<WhatWhereKey> suspects = new LinkedHashSet<>();
        if (previous != null) {
            previous.recordKeys().forEach(key -> suspects.add(key.whatWhereKey()));
            previous.staleKeys().forEach(key -> suspects.add(key.whatWhereKey()));
        }
        boolean mayHoldOurs = o.superseded() != null
                || (previous != null && previous.indexed() && !Boolean.TRUE.equals(o.latestTaken()));
        if (o.state() == State.INDEXED && mayHoldOurs) {
            suspects.add(o.observation().file().whatWhereKey());
        }
        if (!suspects.isEmpty() && deadline.passed()) {
            return o.failed(Failures.outOfTime(o.url(), "the latest table was tidied"));
        }
        for (WhatWhereKey suspect : suspects) {
            // Read liberally: an entry the Python datalake wrote (no size, or no create_time) that names
            // this object is tidied as ours is, or /latest would keep serving a file that is gone.
            StoredRecord current = latest.current(suspect).orElse(null);
            if (current == null || !current.url().equals(o.entry().url()) || (now.indexed() && sameFile(current, now))) {
                continue;
            }
            long newestBucket = current.bucket();
            if (now.indexed() && now.metadata().what().equals(current.what())
                    && now.metadata().where().equals(current.where())) {
                newestBucket = Math.max(newestBucket, now.records(factory).get(0).bucket());
            }
            // Every layout each day has had: a file written before a map change stays under its old key. A
            // record the Python datalake wrote is a candidate too, and goes into the table as it is stored.
            Optional<StoredRecord> replacement = records.newest(current.where(), factory.shardMap()
                    .timeIndexKeys(current.what(), current.where(), newestBucket, newestBucket - LOOKBACK_DAYS));
            if (!replacement.filter(current::sameFile).isPresent() && latest.replace(current, replacement)) {
                hints.is(suspect, replacement.flatMap(LatestUpkeep::ours).orElse(null));
            }
        }
        return o.finished(clock.millis());
    }

    /**
     * The record of a stored item when it is one this code writes; empty for one of the Python datalake's
     * formats (no {@code create_time} or {@code size}), which only the query API's liberal reading serves.
     */
    static Optional<Record> ours(StoredRecord stored) {
        try {
            return Optional.of(RecordItems.fromItem(stored.item()));
        } catch (IllegalArgumentException pythonFormat) {
            return Optional.empty();
        }
    }

    /**
     * Whether an entry names the object's indexed file: ours by url, create_time and metadata; one of the
     * Python datalake's formats by url, create_time (it never matches a missing one), keys and times.
     */
    private static boolean sameFile(StoredRecord stored, ObjectEntry entry) {
        Optional<Record> ours = ours(stored);
        if (ours.isPresent()) {
            Record record = ours.get();
            return record.url().equals(entry.url()) && record.createTime() == entry.createTime()
                    && record.metadata().equals(entry.metadata());
        }
        return stored.url().equals(entry.url())
                && stored.createTime() != null && stored.createTime() == entry.createTime()
                && stored.what().equals(entry.metadata().what()) && stored.where().equals(entry.metadata().where())
                && stored.id().equals(entry.metadata().id()) && stored.start() == entry.metadata().start()
                && Objects.equals(stored.end(), entry.metadata().end());
    }

}
