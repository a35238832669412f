package datalake.ingester;

import datalake.records.Keys.WhatWhereKey;
import datalake.records.Record;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What this sandbox last learnt of each what:where's latest-table entry: the file the table held, or a
 * lower bound of it (a file offered and refused). A hint never decides anything: it only says which
 * offers are likely to lose, so that {@link LatestUpkeep} reads those entries first (one consistent read
 * for the batch) instead of making writes that fail their condition, each a write unit and an exception.
 * A hint can be stale (another sandbox's removal moved the entry back); the read corrects it.
 */
final class LatestHints {
    /** What:wheres remembered; the least recently used is forgotten first. */
    static final int CAPACITY = 4096;

    private final Map<WhatWhereKey, Record> known = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<WhatWhereKey, Record> eldest) {
            return size() > CAPACITY;
        }
    };

    /** Whether the candidate is newer than what is known of its entry (true when nothing is). */
    synchronized boolean mayWin(Record candidate) {
        Record kept = known.get(candidate.whatWhereKey());
        return kept == null || candidate.isNewerThan(kept);
    }

    /** The entry of what:where is {@code entry}, as just read or written (null: none, or unknown). */
    synchronized void is(WhatWhereKey key, Record entry) {
        if (entry == null) {
            known.remove(key);
        } else {
            known.put(key, entry);
        }
    }

    /** The candidate was offered: it is the entry now, or the entry is at least as new. */
    synchronized void offered(Record candidate, boolean taken) {
        known.merge(candidate.whatWhereKey(), candidate, (kept, now) -> taken || now.isNewerThan(kept) ? now : kept);
    }

    synchronized int size() {
        return known.size();
    }
}
