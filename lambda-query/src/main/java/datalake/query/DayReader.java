package datalake.query;

import datalake.dynamodb.StoredRecord;
import datalake.records.Keys.RangeKey;
import datalake.records.Keys.TimeIndexKey;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;

/**
 * One day of a WHAT read forward in range-key order from a position, for one page: its one key, or the
 * S keys of a sharded day merged k-way. Each key is read from its own position and read again only when
 * what was read of it is used up, so a page costs one Query a key plus one for each key that proves
 * denser than its first read, and the records read stay close to the records used.
 *
 * <p>The merge gives the unsharded order: a record is handed out only when every key either holds a
 * later one or has nothing more, and each range key lives in one key of a layout (its WHERE's shard). So a
 * position in the day is one range key, whatever S is, and cursors stay as they are for an unsharded day.
 * The keys of a re-keyed day's earlier layouts join the merge ({@link BucketReader}); a range key found
 * under two layouts is handed out once, from the first key given (the current layout's).
 *
 * <p>How much a Query asks for follows what the caller expects to need ({@code ahead}, in items): the
 * first reads share it among the keys, thinly, because a page of a busy day mostly comes from one or
 * two WHEREs, hence keys; but the key of the WHERE the next record is known to have (the cursor says
 * it, {@link Advice}) reads all of it at once, so that a page that goes on in one WHERE costs one round of
 * Queries, not two. When the position lies in that WHERE too, the keys that cannot hold it under any of
 * the day's layouts wait until the WHERE runs out: a WHERE's range keys ({@code <where>:<id>}, and no
 * WHERE holds a {@code :}) come together in the day's order, so such a key holds nothing before its end,
 * and a page inside one WHERE costs what it costs unsharded, plus a Query of each earlier layout's key
 * of that WHERE (one of the current layout's when the change was from one shard count to another). A key
 * used up asks again for its share of what is still needed, by the share of the records it gave so far,
 * and at least twice its last read. A caller that skips more than it keeps (a narrow window scans the
 * day in range-key order, through every key's WHEREs in turn) has the keys that will soon be used up read
 * with the one that is, concurrently. Not thread-safe: one reader at a time.
 */
final class DayReader {
    /**
     * What the cursor says of the day's next record: the WHERE it has, the key of the current layout
     * that holds that WHERE, every key that may hold it under any of the day's layouts (that one among
     * them: shard s of 2 is shard s of 4 too), and whether the position lies in that WHERE too. Advice:
     * the records come in the same order whatever it says.
     */
    record Advice(String where, int key, Set<Integer> holders, boolean continues) {
        Advice {
            holders = Set.copyOf(holders);
            if (!holders.contains(key)) {
                throw new IllegalArgumentException("the current layout's key of the WHERE must be among its holders");
            }
        }
    }

    private final RecordsTable table;
    private final ExecutorService executor;
    private final List<KeyReader> keys;
    /** How many of the keys, the first ones, are the day's current layout's. */
    private final int current;
    /** What the cursor says of the next record, or null. */
    private final Advice advice;
    /** {@code <where>:} while only the keys that can hold the cursor's WHERE are read, else null. */
    private String block;
    private final int maxRead;
    private boolean started;
    /** What each key's first read asked for. */
    private int firstRead;
    private int taken;
    /** What {@link #taken} was when the cursor's WHERE ran out: the keys' shares count from there. */
    private int takenBefore;

    /**
     * @param keys     the day's keys: one, or a sharded day's S; then those of its earlier layouts
     * @param current  how many of them, the first ones, are the current layout's
     * @param advice   what the cursor says of the first record after {@code after}, or null
     * @param prefix   {@code <where>:} to keep one WHERE, or null
     * @param after    the position: only range keys after it, or null from the day's beginning
     * @param maxRead  the most items one Query asks for
     * @param executor runs the first reads of a sharded day's keys; never the executor whose tasks call this
     */
    DayReader(RecordsTable table, ExecutorService executor, List<TimeIndexKey> keys, int current, Advice advice,
            String prefix, String after, int maxRead) {
        this.table = table;
        this.current = current;
        this.advice = advice;
        this.executor = executor;
        this.maxRead = maxRead;
        this.keys = new ArrayList<>(keys.size());
        for (TimeIndexKey key : keys) {
            this.keys.add(new KeyReader(key, prefix, after));
        }
    }

    /**
     * The day's next record, or null at its end.
     *
     * @param ahead how many more items the caller expects to read; sizes a Query, if one is needed
     * @param keep  how many of them it expects to keep: one that expects to skip more than it keeps scans
     *              the day (a narrow time window), so a used-up key is read again together with the keys
     *              the scan is expected to reach next, in one round trip rather than one each
     */
    StoredRecord next(int ahead, int keep) {
        boolean scanning = ahead - keep > keep;
        if (!started) {
            started = true;
            start(ahead, scanning);
        }
        KeyReader first = smallest(ahead, scanning);
        if (block != null && (first == null || !first.head().startsWith(block))) {
            endBlock(ahead);
            first = smallest(ahead, scanning);
        }
        if (first == null) {
            return null;
        }
        first.taken++;
        taken++;
        StoredRecord next = first.buffer.poll();
        for (KeyReader key : keys) {
            // The same file under an earlier layout too, while a handler moves it: handed out once.
            if (!key.buffer.isEmpty() && key.head().equals(next.rangeKey())) {
                key.buffer.poll();
            }
        }
        return next;
    }

    /**
     * Whether the cursor's WHERE has run out, read while the keys that cannot hold it waited, and a key
     * that was read already holds a later record of the day. The day then surely goes on, but which
     * record comes next only the waiting keys can tell, a Query each: a page that wants nothing more than
     * to know that a record follows its last one (that WHERE's last) ends without them, and the next page,
     * starting after that WHERE, reads every key anyway.
     */
    boolean followsPastBlock() {
        if (block == null) {
            return false;
        }
        String head = null;
        for (KeyReader key : keys) {
            if (!key.inPlay) {
                continue;
            }
            if (key.buffer.isEmpty()) {
                if (key.more) {
                    return false; // may hold more of the WHERE: read it, as next() would
                }
            } else if (head == null || BucketReader.compare(key.head(), head) < 0) {
                head = key.head();
            }
        }
        return head != null && !head.startsWith(block);
    }

    /** The records handed out so far. */
    int taken() {
        return taken;
    }

    /** Whether the day may hold more records (it surely does not once {@link #next} answered null). */
    boolean more() {
        for (KeyReader key : keys) {
            if (!key.buffer.isEmpty() || key.more) {
                return true;
            }
        }
        return false;
    }

    /**
     * The first read of every key in play, concurrently: none of the day's records can be handed out
     * before. Shared among the current layout's keys; an earlier layout's, usually empty, reads as much as
     * one; the next record's key all of {@code ahead}, unless the caller scans (its next match may lie far
     * ahead); and when the position lies in that record's WHERE, the current layout's other keys wait.
     */
    private void start(int ahead, boolean scanning) {
        firstRead = clamp(Math.ceilDiv(ahead, current == 1 ? 1 : 2 * current));
        int advised = advice == null || scanning ? -1 : advice.key();
        if (advised >= 0 && advice.continues()) {
            block = RangeKey.prefix(advice.where());
        }
        List<KeyReader> reading = new ArrayList<>(keys.size());
        int[] limits = new int[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            KeyReader key = keys.get(i);
            key.inPlay = block == null || advice.holders().contains(i);
            if (key.inPlay) {
                limits[reading.size()] = i == advised ? clamp(ahead) : firstRead;
                reading.add(key);
            }
        }
        read(reading, Arrays.copyOf(limits, reading.size()));
    }

    /**
     * The cursor's WHERE has run out: the keys that waited join, read from the position (before the
     * WHERE's end they hold nothing), thinly, as at a day's start; which key gives the rest of the page,
     * and so the keys' shares, counts from here.
     */
    private void endBlock(int ahead) {
        block = null;
        takenBefore = taken;
        firstRead = clamp(Math.ceilDiv(ahead, 2 * current));
        List<KeyReader> waited = new ArrayList<>();
        for (KeyReader key : keys) {
            key.taken = 0;
            if (!key.inPlay) {
                key.inPlay = true;
                waited.add(key);
            }
        }
        int[] limits = new int[waited.size()];
        Arrays.fill(limits, firstRead);
        read(waited, limits);
    }

    /**
     * The key in play whose head comes first, each used-up key read again first (see {@link #readAgain});
     * null when they have nothing more.
     */
    private KeyReader smallest(int ahead, boolean scanning) {
        KeyReader first = null;
        for (KeyReader key : keys) {
            if (!key.inPlay) {
                continue;
            }
            if (key.buffer.isEmpty() && key.more) {
                readAgain(ahead, scanning);
            }
            while (key.buffer.isEmpty() && key.more) {
                key.read(again(key, ahead));
            }
            if (!key.buffer.isEmpty()
                    && (first == null || BucketReader.compare(key.head(), first.head()) < 0)) {
                first = key;
            }
        }
        return first;
    }

    /**
     * The next read of every used-up key, concurrently and, when the caller scans, with the keys the scan
     * is expected to reach next. A scan goes through the day's WHEREs in range-key order, each WHERE under
     * one key, so keys are used up one after another in the order of their heads: once a key has given
     * more than its first read, the longest run of records a key gave stands for a WHERE's worth, and the
     * keys that half of {@code ahead} (the rest is the caller's margin for misses) reaches at that rate are
     * read now, each for that run, rather than each in a round trip of its own when it runs out. (Reading
     * them for their share of {@code ahead} instead saved a few Queries at S = 4 but read more past the
     * page's end, and the items read are what DynamoDB bills.)
     */
    private void readAgain(int ahead, boolean scanning) {
        List<KeyReader> usedUp = new ArrayList<>();
        List<KeyReader> waiting = new ArrayList<>();
        int run = 0;
        for (KeyReader key : keys) {
            if (key.more && key.inPlay) {
                (key.buffer.isEmpty() ? usedUp : waiting).add(key);
            }
            run = Math.max(run, key.taken);
        }
        List<KeyReader> reading = new ArrayList<>(usedUp);
        if (scanning && run > firstRead) {
            waiting.sort((a, b) -> BucketReader.compare(a.head(), b.head()));
            long reached = Math.ceilDiv((long) ahead, 2L * run);
            for (int i = 0; i < waiting.size() && reading.size() < reached; i++) {
                if (waiting.get(i).buffer.size() < run) {
                    reading.add(waiting.get(i));
                }
            }
        }
        int[] limits = new int[reading.size()];
        for (int i = 0; i < limits.length; i++) {
            limits[i] = i < usedUp.size() ? again(reading.get(i), ahead) : clamp(run);
        }
        read(reading, limits);
    }

    /** The given keys read concurrently, each for its limit. */
    private void read(List<KeyReader> reading, int[] limits) {
        List<Callable<RecordsTable.Slice>> reads = new ArrayList<>(reading.size());
        for (int i = 0; i < reading.size(); i++) {
            KeyReader key = reading.get(i);
            int limit = limits[i];
            reads.add(() -> key.query(limit));
        }
        List<RecordsTable.Slice> slices = Futures.all(executor, reads);
        for (int i = 0; i < reading.size(); i++) {
            reading.get(i).take(slices.get(i), limits[i]);
        }
    }

    /**
     * A used-up key's next read: its share of what is still needed, by what it gave so far but never less
     * than an even share, and at least twice its last read (but no more than is needed), so that a key
     * read too thinly grows fast.
     */
    private int again(KeyReader key, int ahead) {
        int merged = taken - takenBefore;
        double share = merged == 0 ? 1 : Math.max((double) key.taken / merged, 1.0 / keys.size());
        return clamp(Math.max((long) Math.ceil(ahead * share), Math.min(ahead, 2L * key.lastRead)));
    }

    private int clamp(long items) {
        return (int) Math.max(1, Math.min(maxRead, items));
    }

    /** One key of the day: its position, what was read of it and not yet handed out, and what it gave. */
    private final class KeyReader {
        final TimeIndexKey key;
        final String prefix;
        final ArrayDeque<StoredRecord> buffer = new ArrayDeque<>();
        String position;
        boolean more = true;
        /** Read, or to be read when used up; false while it waits for the cursor's WHERE to run out. */
        boolean inPlay = true;
        int lastRead;
        int taken;

        KeyReader(TimeIndexKey key, String prefix, String after) {
            this.key = key;
            this.prefix = prefix;
            this.position = after;
        }

        String head() {
            return buffer.peek().rangeKey();
        }

        RecordsTable.Slice query(int limit) {
            return table.queryKey(key, prefix, position, limit);
        }

        void read(int limit) {
            take(query(limit), limit);
        }

        void take(RecordsTable.Slice slice, int limit) {
            buffer.addAll(slice.records());
            position = slice.lastKey();
            more = position != null;
            lastRead = limit;
        }
    }
}
