package datalake.ingester;

import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.ObjectEntry.State;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    LatestUpkeep(LatestTable latest, RecordsTable records, RecordFactory factory, Concurrency concurrency, Clock clock) {
        this.latest = latest;
        this.records = records;
        this.factory = factory;
        this.concurrency = concurrency;
        this.clock = clock;
    }

    /** Offers the newest file of each what:where among the objects indexed here. */
    void offer(List<BatchObject> batch) {
        List<BatchObject> written = new ArrayList<>();
        for (BatchObject object : batch) {
            if (object.indexed()) {
                written.add(object);
            }
        }
        written.sort(BatchObject.LATER_LAST);
        Map<String, BatchObject> newest = new LinkedHashMap<>();
        for (BatchObject object : written) {
            Record candidate = object.records.get(0);
            newest.merge(candidate.whatWhereKey().toString(), object,
                    (kept, next) -> kept.records.get(0).isNewerThan(candidate) ? kept : next);
        }
        concurrency.each(new ArrayList<>(newest.values()), o -> {
            o.latestTaken = latest.offer(o.records.get(0));
            o.finishedAt = clock.millis();
        }, (o, f) -> o.fail(f));
    }

    /**
     * An entry that names this object in a state it no longer has (removed, overwritten, or written by a
     * handler a later one superseded) is replaced by the newest file of the day buckets, or removed.
     */
    void tidy(BatchObject o) {
        if (!o.committed() || ObjectSync.transientlyFailed(o)) {
            return;
        }
        ObjectEntry now = o.superseded != null ? o.superseded : o.entry;
        ObjectEntry previous = o.previous();
        Map<String, Record> suspects = new LinkedHashMap<>();
        if (previous != null && previous.indexed()) {
            Record old = previous.records(factory).get(0);
            suspects.put(old.whatWhereKey().toString(), old);
        }
        boolean mayHoldOurs = o.superseded != null || (previous != null && previous.indexed() && !Boolean.TRUE.equals(o.latestTaken));
        if (o.state == State.INDEXED && o.records != null && mayHoldOurs) {
            suspects.putIfAbsent(o.records.get(0).whatWhereKey().toString(), o.records.get(0));
        }
        for (Record suspect : suspects.values()) {
            Record current = latest.current(suspect.whatWhereKey());
            if (current == null || !current.url().equals(o.entry.url()) || (now.indexed() && sameFile(current, now))) {
                continue;
            }
            long newestBucket = current.bucket();
            if (now.indexed() && now.metadata().what().equals(current.metadata().what())
                    && now.metadata().where().equals(current.metadata().where())) {
                newestBucket = Math.max(newestBucket, now.records(factory).get(0).bucket());
            }
            Record replacement = records.newest(current.metadata().what(), current.metadata().where(), newestBucket,
                    newestBucket - LOOKBACK_DAYS);
            if (replacement == null || !sameFile(replacement, current)) {
                latest.replace(current, replacement);
            }
        }
        o.finishedAt = clock.millis();
    }

    private static boolean sameFile(Record record, ObjectEntry entry) {
        return record.url().equals(entry.url()) && record.createTime() == entry.createTime()
                && record.metadata().equals(entry.metadata());
    }

    private static boolean sameFile(Record a, Record b) {
        return a.url().equals(b.url()) && a.createTime() == b.createTime() && a.metadata().equals(b.metadata());
    }

}
