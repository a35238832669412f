package datalake.records;

import datalake.records.Keys.TimeIndexKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.bouncycastle.crypto.digests.Blake2bDigest;

/**
 * Which WHATs are written sharded, from which day on, and into how many shards (docs/DESIGN.md, "Records
 * and keys"). On a day a WHAT has S > 1 shards, its records go under {@code <day>:<what>#<s>}, with
 * s = {@link #shardOf(String, int)} of the record's WHERE; on any other day (before the WHAT's first
 * entry, or with S = 1) under the plain {@code <day>:<what>}. Immutable; the functions read it from the
 * records table ({@code ShardMapItem}) and the operator writes it with {@code scripts/shards.sh}.
 *
 * <p>A change re-keys days that may already hold records under their old layout: files dated ahead,
 * written before it, and files written in the minute functions keep the old map. So the map remembers
 * the layouts a change replaced ({@link #earlier(String)}), and readers read a day under every layout
 * it may have had ({@link #keys(long, String, String)}); nothing has to move for a file to be found.
 */
public final class ShardMap {
    /** The most shards a WHAT may have: 16 partitions take 16,000 writes a second of one WHAT. */
    public static final int MAX_SHARDS = 16;
    public static final ShardMap EMPTY = new ShardMap(new TreeMap<>(), new TreeMap<>());

    /**
     * From day bucket {@code fromDay} on (until the next entry), the WHAT's records go into {@code shards}
     * shards; 1 is the plain key.
     */
    public record Entry(long fromDay, int shards) {
        public Entry {
            if (shards < 1 || shards > MAX_SHARDS) {
                throw new IllegalArgumentException("a WHAT has 1 to " + MAX_SHARDS + " shards, not " + shards + ".");
            }
        }

        /** The first day as {@code YYYY-MM-DD} (UTC). */
        public String fromDate() {
            return LocalDate.ofEpochDay(fromDay).toString();
        }
    }

    /** In name order (a TreeMap). */
    private final Map<String, List<Entry>> whats;
    /** Layouts changes replaced, per WHAT (a TreeMap): only those the current entries do not imply. */
    private final Map<String, List<Entry>> earlier;

    private ShardMap(Map<String, List<Entry>> whats, Map<String, List<Entry>> earlier) {
        this.whats = whats;
        this.earlier = earlier;
    }

    /** The map of these entries, with no earlier layouts. */
    public static ShardMap of(Map<String, List<Entry>> whats) {
        return of(whats, Map.of());
    }

    /**
     * The map of these entries; each WHAT a slug with at least one entry, its entries in strictly increasing
     * day order ({@link IllegalArgumentException} otherwise). {@code earlier} holds, per WHAT, entries that
     * changes replaced, in any order: reduced to the first day of each shard count that the entries do not
     * already reach as early.
     */
    public static ShardMap of(Map<String, List<Entry>> whats, Map<String, List<Entry>> earlier) {
        Map<String, List<Entry>> copy = new TreeMap<>();
        whats.forEach((what, entries) -> {
            checkSlug(what);
            if (entries.isEmpty()) {
                throw new IllegalArgumentException("the WHAT " + what + " has no shard entry.");
            }
            for (int i = 1; i < entries.size(); i++) {
                if (entries.get(i).fromDay() <= entries.get(i - 1).fromDay()) {
                    throw new IllegalArgumentException("the shard entries of " + what + " are not in day order.");
                }
            }
            copy.put(what, List.copyOf(entries));
        });
        Map<String, List<Entry>> replaced = new TreeMap<>();
        earlier.forEach((what, entries) -> {
            checkSlug(what);
            List<Entry> kept = reduce(entries, copy.getOrDefault(what, List.of()));
            if (!kept.isEmpty()) {
                replaced.put(what, kept);
            }
        });
        return new ShardMap(copy, replaced);
    }

    private static void checkSlug(String what) {
        if (!MetadataRules.isSlug(what)) {
            throw new IllegalArgumentException("a sharded WHAT is a slug (a-z, 0-9, - and _, at most "
                    + MetadataRules.MAX_SLUG_LENGTH + " characters).");
        }
    }

    /**
     * The first day of each shard count among {@code earlier}, but 1 (every day before a WHAT's first entry
     * is plain, so a reader counts it anyway) and those {@code current} reaches as early; in day order.
     */
    private static List<Entry> reduce(List<Entry> earlier, List<Entry> current) {
        Map<Integer, Long> first = new TreeMap<>();
        for (Entry entry : earlier) {
            first.merge(entry.shards(), entry.fromDay(), Math::min);
        }
        List<Entry> kept = new ArrayList<>();
        first.forEach((shards, day) -> {
            boolean implied = shards == 1
                    || current.stream().anyMatch(e -> e.shards() == shards && e.fromDay() <= day);
            if (!implied) {
                kept.add(new Entry(day, shards));
            }
        });
        kept.sort(Comparator.comparingLong(Entry::fromDay).thenComparingInt(Entry::shards));
        return List.copyOf(kept);
    }

    /** Every WHAT with entries, in name order. */
    public Map<String, List<Entry>> whats() {
        return Collections.unmodifiableMap(whats);
    }

    /** The entries of one WHAT, in day order (empty: not sharded now). */
    public List<Entry> entries(String what) {
        return whats.getOrDefault(what, List.of());
    }

    /** Every WHAT with earlier layouts, in name order. */
    public Map<String, List<Entry>> earlier() {
        return Collections.unmodifiableMap(earlier);
    }

    /**
     * Layouts read but not written, that the entries do not imply, in day order: from {@code fromDay} on, a
     * day may hold records under {@code shards} shards. Those changes replaced (files dated ahead of a
     * change, or written by a function that still held the map before it), and the one a change announces
     * before writers use it ({@link #withEarlier}).
     */
    public List<Entry> earlier(String what) {
        return earlier.getOrDefault(what, List.of());
    }

    /**
     * The shard counts the WHAT's records of this day bucket may be under: the one it is written into now,
     * first, then in increasing order every other one it had since the WHAT's first entry (1 among them:
     * before it, the day was plain). A change's old layout stays here for good, since a file may be dated
     * any day ahead.
     */
    public List<Integer> layouts(String what, long day) {
        int now = shards(what, day);
        Set<Integer> others = new TreeSet<>();
        for (List<Entry> entries : List.of(entries(what), earlier(what))) {
            for (Entry entry : entries) {
                if (entry.fromDay() <= day) {
                    others.add(1);
                    others.add(entry.shards());
                }
            }
        }
        others.remove(now);
        List<Integer> layouts = new ArrayList<>(others.size() + 1);
        layouts.add(now);
        layouts.addAll(others);
        return layouts;
    }

    /**
     * Every key that may hold the day's records of the WHAT (at {@code where}, unless null): those of each
     * of its {@link #layouts}, the current one's first, each key once (shard s of 2 is shard s of 4 too).
     */
    public List<TimeIndexKey> keys(long day, String what, String where) {
        Set<TimeIndexKey> keys = new LinkedHashSet<>();
        for (int shards : layouts(what, day)) {
            keys.addAll(keys(day, what, where, shards));
        }
        return List.copyOf(keys);
    }

    /** The keys of one layout of the day: the plain key, the WHERE's shard, or (no WHERE) all S shards. */
    public static List<TimeIndexKey> keys(long day, String what, String where, int shards) {
        if (shards == 1) {
            return List.of(new TimeIndexKey(day, what));
        }
        if (where != null) {
            return List.of(new TimeIndexKey(day, what, shardOf(where, shards)));
        }
        List<TimeIndexKey> keys = new ArrayList<>(shards);
        for (int shard = 0; shard < shards; shard++) {
            keys.add(new TimeIndexKey(day, what, shard));
        }
        return keys;
    }

    /** How many shards the WHAT's records of this day bucket are written into (1: the plain key). */
    public int shards(String what, long day) {
        List<Entry> entries = whats.get(what);
        if (entries == null) {
            return 1;
        }
        int shards = 1;
        for (Entry entry : entries) {
            if (entry.fromDay() > day) {
                break;
            }
            shards = entry.shards();
        }
        return shards;
    }

    /** The hash key the records of this day, WHAT and WHERE are written under now. */
    public TimeIndexKey timeIndexKey(long day, String what, String where) {
        int shards = shards(what, day);
        return shards == 1 ? new TimeIndexKey(day, what) : new TimeIndexKey(day, what, shardOf(where, shards));
    }

    /**
     * The hash keys that may hold records of one WHAT and WHERE from day {@code newestDay} back to
     * {@code oldestDay}, newest day first, each day's current key before its earlier layouts' ({@link #keys}).
     */
    public List<TimeIndexKey> timeIndexKeys(String what, String where, long newestDay, long oldestDay) {
        List<TimeIndexKey> keys = new ArrayList<>((int) Math.max(0, newestDay - oldestDay + 1));
        for (long day = newestDay; day >= oldestDay; day--) {
            keys.addAll(keys(day, what, where));
        }
        return keys;
    }

    /**
     * This map with the WHAT written into {@code from.shards()} shards from {@code from.fromDay()} on: its
     * entries from that day on are replaced, and an entry that changes nothing is left out (so an unchanged
     * map is an equal one). The entries replaced join the WHAT's {@link #earlier} layouts.
     */
    public ShardMap with(String what, Entry from) {
        List<Entry> entries = new ArrayList<>();
        List<Entry> replaced = new ArrayList<>(earlier(what));
        for (Entry entry : entries(what)) {
            if (entry.fromDay() < from.fromDay()) {
                entries.add(entry);
            } else {
                replaced.add(entry);
            }
        }
        int before = entries.isEmpty() ? 1 : entries.get(entries.size() - 1).shards();
        if (before != from.shards()) {
            entries.add(from);
        }
        Map<String, List<Entry>> copy = new TreeMap<>(whats);
        if (entries.isEmpty()) {
            copy.remove(what);
        } else {
            copy.put(what, List.copyOf(entries));
        }
        Map<String, List<Entry>> earlierCopy = new TreeMap<>(earlier);
        earlierCopy.put(what, replaced);
        return of(copy, earlierCopy);
    }

    /**
     * This map with {@code layout} read from its day on, but not written: the first step of a change, so
     * that every reader reads a layout before any writer uses it.
     */
    public ShardMap withEarlier(String what, Entry layout) {
        Map<String, List<Entry>> earlierCopy = new TreeMap<>(earlier);
        List<Entry> entries = new ArrayList<>(earlier(what));
        entries.add(layout);
        earlierCopy.put(what, entries);
        return of(whats, earlierCopy);
    }

    /**
     * The shard of a WHERE among {@code shards}: the first 8 bytes of BLAKE2b (an 8-byte digest, BLAKE2b's
     * own parameter, not a cut 64-byte one) of the WHERE's UTF-8, read as an unsigned big-endian number,
     * modulo {@code shards}. In Python: {@code int.from_bytes(hashlib.blake2b(where.encode(),
     * digest_size=8).digest(), "big") % shards}. Stable across languages and machines: the key format.
     */
    public static int shardOf(String where, int shards) {
        if (shards < 1) {
            throw new IllegalArgumentException("there is at least one shard.");
        }
        byte[] bytes = where.getBytes(StandardCharsets.UTF_8);
        Blake2bDigest digest = new Blake2bDigest(64);
        digest.update(bytes, 0, bytes.length);
        byte[] out = new byte[8];
        digest.doFinal(out, 0);
        return (int) Long.remainderUnsigned(ByteBuffer.wrap(out).getLong(), shards);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ShardMap map && map.whats.equals(whats) && map.earlier.equals(earlier);
    }

    @Override
    public int hashCode() {
        return 31 * whats.hashCode() + earlier.hashCode();
    }

    @Override
    public String toString() {
        return "ShardMap" + whats + (earlier.isEmpty() ? "" : " earlier " + earlier);
    }
}
