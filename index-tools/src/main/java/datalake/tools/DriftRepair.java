package datalake.tools;

import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.RecordKey;
import datalake.dynamodb.StoredRecord;
import datalake.ingester.Deadline;
import datalake.ingester.Failure;
import datalake.ingester.Followed;
import datalake.ingester.Ingester;
import datalake.ingester.ObjectEvent;
import datalake.ingester.StoredIndex;
import datalake.records.Keys.WhatWhereKey;
import datalake.records.Record;
import datalake.records.RecordFactory;
import datalake.records.TimeBuckets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The repair of one drift ({@code scripts/reconcile.sh --fix}): the object followed through the
 * ingester's code path ({@link Ingester#follow}), then the records of its URL that its per-object item
 * does not know deleted (conditionally on the URL), and latest-table entries naming a file no longer
 * indexed replaced by the newest file of the day buckets, or removed. A WHAT and WHERE without a latest
 * entry gets its newest file followed: the ingester offers every file it follows to the latest table.
 */
final class DriftRepair {
    /** How many day buckets are read for a latest entry, as the ingester reads them (LatestUpkeep). */
    private static final int LOOKBACK_DAYS = 90;

    private final Ingester ingester;
    private final StoredIndex index;
    private final RecordFactory factory;
    private final Clock clock;

    DriftRepair(Ingester ingester, StoredIndex index, RecordFactory factory, Clock clock) {
        this.ingester = ingester;
        this.index = index;
        this.factory = factory;
        this.clock = clock;
    }

    /** Repairs one finding; throws why it could not. */
    void fix(Reconcile.Finding finding, Target target, IndexSnapshot.Stored stored, List<Record> latestEntries) {
        if (finding.drift() == Reconcile.Drift.STALE_LATEST) {
            for (Record entry : latestEntries) {
                if (entry.url().equals(finding.url())) {
                    retire(entry);
                }
            }
            return;
        }
        String key = finding.url().substring(("s3://" + target.bucket() + "/").length());
        List<Followed> outcome = ingester.follow(List.of(new ObjectEvent(target.bucket(), key, "Reconcile", null)),
                Deadline.after(clock, Duration.ofSeconds(60)));
        Followed followed = outcome.get(0);
        if (followed.failure() != null && !followed.failure().permanent()) {
            throw new IllegalStateException(followed.failure().message());
        }
        if (finding.drift() == Reconcile.Drift.MISSING_LATEST && stored != null && !stored.records().isEmpty()) {
            newestOfTheFeed(stored.records().get(0).whatWhereKey());
        }
        if (stored == null) {
            return;
        }
        // Records of this URL the per-object item does not know (planted, or written before it existed).
        Set<RecordKey> wanted = new HashSet<>();
        ObjectEntry now = index.object(finding.url()).filter(ObjectEntry::indexed).orElse(null);
        if (now != null) {
            wanted.addAll(now.recordKeys());
        }
        Set<RecordKey> stray = new LinkedHashSet<>(stored.keys());
        stray.removeAll(wanted);
        if (!stray.isEmpty()) {
            index.removeRecords(finding.url(), stray);
            now = writeBack(finding.url(), stray, now);
            Set<String> whatWheres = new HashSet<>();
            stored.records().stream().filter(r -> stray.contains(RecordKey.of(r)))
                    .forEach(r -> whatWheres.add(r.whatWhereKey().toString()));
            for (String whatWhere : whatWheres) {
                Record current = index.latest(WhatWhereKey.parse(whatWhere)).orElse(null);
                boolean currentFile = now != null && now.indexed() && current != null
                        && current.createTime() == now.createTime() && current.metadata().equals(now.metadata());
                if (current != null && current.url().equals(finding.url()) && !currentFile) {
                    retire(current);
                }
            }
        }
    }

    /**
     * The object's entry after its strays were deleted: a handler that indexed it again meanwhile (a
     * re-upload while the repair ran) may have written one of those keys before the delete landed, so
     * the keys its entry names now are written back, as the ingester aligns a later commit's keys.
     */
    private ObjectEntry writeBack(String url, Set<RecordKey> deleted, ObjectEntry before) {
        ObjectEntry after = index.object(url).filter(ObjectEntry::indexed).orElse(null);
        if (after == null || after.equals(before)) {
            return after;
        }
        List<Record> back = after.records(factory).stream().filter(r -> deleted.contains(RecordKey.of(r))).toList();
        if (!back.isEmpty()) {
            Map<Record, Failure> failures = index.writeRecords(back, Deadline.after(clock, Duration.ofSeconds(60)));
            if (!failures.isEmpty()) {
                throw new IllegalStateException(url + ": a record of its new state could not be written back: "
                        + failures.values().iterator().next().message());
            }
        }
        return after;
    }

    /**
     * A feed's entry just restored from the newest file under the target: the feed's newest file may lie
     * elsewhere in the bucket, so the day buckets from the entry's day on ({@value #LOOKBACK_DAYS} at most,
     * up to tomorrow) decide, as the latest table would have had it.
     */
    private void newestOfTheFeed(WhatWhereKey feed) {
        Record entry = index.latest(feed).orElse(null);
        if (entry == null) {
            return;
        }
        StoredRecord current = StoredRecord.ofLatest(entry);
        long from = TimeBuckets.bucketOf(entry.metadata().start());
        long to = Math.min(from + LOOKBACK_DAYS, TimeBuckets.bucketOf(clock.millis()) + 1);
        newestOf(entry, to, from)
                .filter(newer -> newer.isNewerThan(current))
                .ifPresent(newer -> index.replaceLatest(entry, Optional.of(newer)));
    }

    /**
     * The newest record of the entry's WHAT and WHERE in the day buckets from newestDay back to oldestDay,
     * in any format: one the Python datalake wrote goes into the table as stored, as the ingester does.
     */
    private Optional<StoredRecord> newestOf(Record entry, long newestDay, long oldestDay) {
        return index.newest(entry.metadata().where(), factory.shardMap().timeIndexKeys(entry.metadata().what(),
                entry.metadata().where(), newestDay, oldestDay));
    }

    /** Replaces a latest-table entry with the newest record of the day buckets, or removes it. */
    private void retire(Record entry) {
        long newest = TimeBuckets.bucketOf(entry.metadata().start());
        Optional<StoredRecord> replacement = newestOf(entry, newest, newest - LOOKBACK_DAYS);
        if (replacement.filter(StoredRecord.ofLatest(entry)::sameFile).isPresent()) {
            return;
        }
        index.replaceLatest(entry, replacement);
    }

}
