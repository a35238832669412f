package datalake.records;

import datalake.records.Keys.TimeIndexKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bouncycastle.crypto.digests.Blake2bDigest;

/**
 * Which WHATs are written sharded, from which day on, and into how many shards (docs/DESIGN.md, "Records
 * and keys"). On a day a WHAT has S > 1 shards, its records go under {@code <day>:<what>#<s>}, with
 * s = {@link #shardOf(String, int)} of the record's WHERE; on any other day (before the WHAT's first
 * entry, or with S = 1) under the plain {@code <day>:<what>}. Immutable; the functions read it from the
 * records table ({@code ShardMapItem}) and the operator writes it with {@code scripts/shards.sh}.
 */
public final class ShardMap {
    /** The most shards a WHAT may have: 16 partitions take 16,000 writes a second of one WHAT. */
    public static final int MAX_SHARDS = 16;
    public static final ShardMap EMPTY = new ShardMap(new TreeMap<>());

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

    private ShardMap(Map<String, List<Entry>> whats) {
        this.whats = whats;
    }

    /**
     * The map of these entries; each WHAT a slug with at least one entry, its entries in strictly increasing
     * day order ({@link IllegalArgumentException} otherwise).
     */
    public static ShardMap of(Map<String, List<Entry>> whats) {
        Map<String, List<Entry>> copy = new TreeMap<>();
        whats.forEach((what, entries) -> {
            if (!MetadataRules.isSlug(what)) {
                throw new IllegalArgumentException("a sharded WHAT is a slug (a-z, 0-9, - and _, at most "
                        + MetadataRules.MAX_SLUG_LENGTH + " characters).");
            }
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
        return new ShardMap(copy);
    }

    /** Every WHAT with entries, in name order. */
    public Map<String, List<Entry>> whats() {
        return Collections.unmodifiableMap(whats);
    }

    /** The entries of one WHAT, in day order (empty: never sharded). */
    public List<Entry> entries(String what) {
        return whats.getOrDefault(what, List.of());
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

    /** The hash key of the records of this day, WHAT and WHERE. */
    public TimeIndexKey timeIndexKey(long day, String what, String where) {
        int shards = shards(what, day);
        return shards == 1 ? new TimeIndexKey(day, what) : new TimeIndexKey(day, what, shardOf(where, shards));
    }

    /** The hash keys of one WHAT and WHERE from day {@code newestDay} back to {@code oldestDay}, newest first. */
    public List<TimeIndexKey> timeIndexKeys(String what, String where, long newestDay, long oldestDay) {
        List<TimeIndexKey> keys = new ArrayList<>((int) Math.max(0, newestDay - oldestDay + 1));
        for (long day = newestDay; day >= oldestDay; day--) {
            keys.add(timeIndexKey(day, what, where));
        }
        return keys;
    }

    /**
     * This map with the WHAT written into {@code from.shards()} shards from {@code from.fromDay()} on: its
     * entries from that day on are replaced, and an entry that changes nothing is left out (so an unchanged
     * map is an equal one).
     */
    public ShardMap with(String what, Entry from) {
        List<Entry> entries = new ArrayList<>();
        for (Entry entry : entries(what)) {
            if (entry.fromDay() < from.fromDay()) {
                entries.add(entry);
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
        return of(copy);
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
        return other instanceof ShardMap map && map.whats.equals(whats);
    }

    @Override
    public int hashCode() {
        return whats.hashCode();
    }

    @Override
    public String toString() {
        return "ShardMap" + whats;
    }
}
