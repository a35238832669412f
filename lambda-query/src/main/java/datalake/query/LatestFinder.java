package datalake.query;

import datalake.dynamodb.StoredRecord;
import datalake.records.TimeBuckets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * The newest file, by (start, create_time), of a WHAT and WHERE, as the Python datalake API finds it:
 * files whose start lies more than 24 hours ahead of now are never the latest (one file with a wrong
 * future date must not stay "latest" for ever).
 *
 * <p>With a latest table its entry answers, whatever its age, unless it starts more than 24 hours ahead.
 * Otherwise (no table, no entry, an unreadable or a future entry) the day buckets are read newest first,
 * from the bucket 24 hours ahead back to {@code lookback} days before today's, a few at a time
 * concurrently, leaving out the files that start more than 24 hours ahead. The scan stops as soon as
 * no older bucket can hold a newer start: a file in bucket b starts before the end of b.
 */
final class LatestFinder {
    static final int DEFAULT_LOOKBACK_DAYS = 14;
    /** Ten years of buckets: more is surely a mistake, and would keep one request busy for minutes. */
    static final int MAX_LOOKBACK_DAYS = 3660;
    /** How far ahead of now a file's start may lie and still be the latest (the Python API's 24 hours). */
    static final long MAX_LOOKAHEAD_MS = TimeBuckets.DAY_MS;
    private static final int WAVE = 8;
    private static final int READ_LIMIT = 200;

    private final BucketReader buckets;
    private final LatestTable latest;
    private final ExecutorService executor;
    private final Clock clock;

    /** @param latest the latest table, or null to always scan the day buckets */
    LatestFinder(BucketReader buckets, LatestTable latest, ExecutorService executor, Clock clock) {
        this.buckets = buckets;
        this.latest = latest;
        this.executor = executor;
        this.clock = clock;
    }

    Optional<StoredRecord> find(String what, String where, int lookbackDays) {
        Optional<StoredRecord> entry = latest == null ? Optional.empty() : latest.latest(what, where);
        return entry.isPresent() ? fromEntry(entry.get(), lookbackDays) : scan(what, where, lookbackDays);
    }

    /**
     * The latest of the feed of a latest-table entry (read already, as {@code /feeds/} reads them): the
     * entry itself, unless it starts more than 24 hours ahead; then the day buckets' newest, as
     * {@link #find} answers.
     */
    Optional<StoredRecord> fromEntry(StoredRecord entry, int lookbackDays) {
        return believable(entry, clock.millis()) ? Optional.of(entry) : scan(entry.what(), entry.where(), lookbackDays);
    }

    /** Whether an entry is its feed's latest as it stands: it starts no more than 24 hours after {@code now}. */
    private static boolean believable(StoredRecord entry, long now) {
        return entry.start() <= now + MAX_LOOKAHEAD_MS;
    }

    /**
     * {@link #fromEntry} of each entry, in order: the day buckets of the entries that start too far ahead
     * scanned concurrently on {@code scans} (as many at a time as it has threads), each scan's buckets
     * read on this finder's executor as ever.
     *
     * @param scans runs the scans; never this finder's executor, whose reads the scans wait for
     */
    List<Optional<StoredRecord>> fromEntries(List<StoredRecord> entries, int lookbackDays, ExecutorService scans) {
        List<Optional<StoredRecord>> found = new ArrayList<>(entries.size());
        List<Integer> ahead = new ArrayList<>();
        List<Callable<Optional<StoredRecord>>> reads = new ArrayList<>();
        long now = clock.millis();
        for (StoredRecord entry : entries) {
            if (believable(entry, now)) {
                found.add(Optional.of(entry));
            } else {
                ahead.add(found.size());
                found.add(Optional.empty());
                reads.add(() -> scan(entry.what(), entry.where(), lookbackDays));
            }
        }
        List<Optional<StoredRecord>> scanned = Futures.all(scans, reads);
        for (int i = 0; i < ahead.size(); i++) {
            found.set(ahead.get(i), scanned.get(i));
        }
        return found;
    }

    private Optional<StoredRecord> scan(String what, String where, int lookbackDays) {
        long now = clock.millis();
        long horizon = now + MAX_LOOKAHEAD_MS;
        return scan(what, where, TimeBuckets.bucketOf(horizon), TimeBuckets.bucketOf(now) - lookbackDays, horizon);
    }

    private Optional<StoredRecord> scan(String what, String where, long newest, long oldest, long horizon) {
        StoredRecord best = null;
        for (long waveStart = newest; waveStart >= oldest; waveStart -= WAVE) {
            long waveEnd = Math.max(oldest, waveStart - WAVE + 1);
            List<Future<StoredRecord>> wave = new ArrayList<>(WAVE);
            for (long bucket = waveStart; bucket >= waveEnd; bucket--) {
                long b = bucket;
                wave.add(executor.submit(() -> newestIn(b, what, where, horizon)));
            }
            try {
                for (int i = 0; i < wave.size(); i++) {
                    long bucket = waveStart - i;
                    if (best != null && best.start() >= TimeBuckets.startOf(bucket + 1)) {
                        return Optional.of(best);
                    }
                    StoredRecord candidate = Futures.join(wave.get(i));
                    if (candidate != null && (best == null || candidate.isNewerThan(best))) {
                        best = candidate;
                    }
                }
            } finally {
                Futures.cancel(wave);
            }
        }
        return Optional.ofNullable(best);
    }

    /** The newest file of the bucket that starts by the horizon; a sharded day's keys each read on its own. */
    private StoredRecord newestIn(long bucket, String what, String where, long horizon) {
        StoredRecord best = null;
        for (Newest key : buckets.scan(bucket, what, where, READ_LIMIT, () -> new Newest(horizon))) {
            if (key.best != null && (best == null || key.best.isNewerThan(best))) {
                best = key.best;
            }
        }
        return best;
    }

    /** The newest record fed to it that starts by the horizon. */
    private static final class Newest implements Consumer<StoredRecord> {
        private final long horizon;
        private StoredRecord best;

        Newest(long horizon) {
            this.horizon = horizon;
        }

        @Override
        public void accept(StoredRecord record) {
            if (record.start() <= horizon && (best == null || record.isNewerThan(best))) {
                best = record;
            }
        }
    }
}
