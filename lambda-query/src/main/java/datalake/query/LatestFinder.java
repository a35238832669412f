package datalake.query;

import datalake.records.Record;
import datalake.records.TimeBuckets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * The newest file, by (start, create_time), of a WHAT and WHERE that touches the last {@code lookback}
 * days (today's bucket and {@code lookback} before it).
 *
 * <p>With a latest table its entry answers when it lies in that window; otherwise (no table, no
 * entry, or an older entry) the day buckets are read newest first, a few at a time concurrently. The
 * scan stops as soon as no older bucket can hold a newer start: a file in bucket b starts before the
 * end of b.
 */
final class LatestFinder {
    static final int DEFAULT_LOOKBACK_DAYS = 14;
    /** Ten years of buckets: more is surely a mistake, and would keep one request busy for minutes. */
    static final int MAX_LOOKBACK_DAYS = 3660;
    private static final int WAVE = 8;
    private static final int READ_LIMIT = 200;

    private final RecordsTable records;
    private final LatestTable latest;
    private final ExecutorService executor;
    private final Clock clock;

    /** @param latest the latest table, or null to always scan the day buckets */
    LatestFinder(RecordsTable records, LatestTable latest, ExecutorService executor, Clock clock) {
        this.records = records;
        this.latest = latest;
        this.executor = executor;
        this.clock = clock;
    }

    Optional<Record> find(String what, String where, int lookbackDays) {
        long today = TimeBuckets.bucketOf(clock.millis());
        long oldest = today - lookbackDays;
        if (latest != null) {
            Optional<Record> entry = latest.latest(what, where);
            if (entry.isPresent() && TimeBuckets.bucketOf(entry.get().metadata().endOrStart()) >= oldest) {
                return entry;
            }
        }
        return scan(what, where, today, oldest);
    }

    private Optional<Record> scan(String what, String where, long newest, long oldest) {
        Record best = null;
        for (long waveStart = newest; waveStart >= oldest; waveStart -= WAVE) {
            long waveEnd = Math.max(oldest, waveStart - WAVE + 1);
            List<Future<Record>> wave = new ArrayList<>(WAVE);
            for (long bucket = waveStart; bucket >= waveEnd; bucket--) {
                long b = bucket;
                wave.add(executor.submit(() -> newestIn(b, what, where)));
            }
            try {
                for (int i = 0; i < wave.size(); i++) {
                    long bucket = waveStart - i;
                    if (best != null && best.metadata().start() >= TimeBuckets.startOf(bucket + 1)) {
                        return Optional.of(best);
                    }
                    Record candidate = Futures.join(wave.get(i));
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

    private Record newestIn(long bucket, String what, String where) {
        Record best = null;
        String position = null;
        String prefix = datalake.records.Keys.RangeKey.prefix(where);
        do {
            RecordsTable.Slice slice = records.queryBucket(bucket, what, prefix, position, READ_LIMIT);
            for (Record record : slice.records()) {
                if (best == null || record.isNewerThan(best)) {
                    best = record;
                }
            }
            position = slice.lastKey();
        } while (position != null);
        return best;
    }
}
