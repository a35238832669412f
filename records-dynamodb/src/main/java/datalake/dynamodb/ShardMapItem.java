package datalake.dynamodb;

import datalake.records.ShardMap;
import datalake.records.ShardMap.Entry;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The shard map ({@link ShardMap}) as one item of the records table, mapped explicitly. Like the
 * per-object items it lives in a key space of its own: its {@code time_index_key} is {@value #KEY},
 * never a day number followed by {@code :} (all a query asks for) nor an {@code s3://} URL; it has no
 * {@code url} (reconciliation's Scan filters on it) and no {@code work_id_index_key} (the GSI never holds
 * it). docs/DESIGN.md, "Records and keys", gives its attributes.
 */
public final class ShardMapItem {
    /** The item's {@code time_index_key} ({@code #} never begins a day number, a URL or a WHAT). */
    public static final String KEY = "#shard-map";
    /** The item's {@code range_key} (a record's always holds a {@code :}). */
    public static final String RANGE_KEY_VALUE = "shard-map";
    /** The format of this item this code reads and writes. */
    public static final int FORMAT = 1;
    public static final String REVISION = "revision";
    public static final String UPDATED_AT = "updated_at";
    public static final String WHATS = "whats";
    /** Layouts read but not written ({@link ShardMap#earlier}); absent in items written before they were kept. */
    public static final String EARLIER = "earlier";
    public static final String FROM_DAY = "from_day";
    public static final String SHARDS = "shards";

    private ShardMapItem() {
    }

    /**
     * A map as stored, with the revision its next write must name and when it was written (epoch ms: how
     * long the functions have had it, {@code scripts/shards.sh} asks).
     */
    public record Stored(ShardMap map, long revision, long updatedAtMillis) {
        /** No item: no WHAT sharded. */
        public static final Stored NONE = new Stored(ShardMap.EMPTY, 0, 0);
    }

    /** The item's primary key. */
    public static Map<String, AttributeValue> key() {
        return Map.of(RecordItems.TIME_INDEX_KEY, AttributeValue.fromS(KEY),
                RecordItems.RANGE_KEY, AttributeValue.fromS(RANGE_KEY_VALUE));
    }

    /** The whole item of a map at a revision. */
    public static Map<String, AttributeValue> toItem(ShardMap map, long revision, long updatedAtMillis) {
        Map<String, AttributeValue> item = new HashMap<>(key());
        item.put(RecordItems.VERSION, AttributeValue.fromN(Integer.toString(FORMAT)));
        item.put(REVISION, AttributeValue.fromN(Long.toString(revision)));
        item.put(UPDATED_AT, AttributeValue.fromN(Long.toString(updatedAtMillis)));
        item.put(WHATS, entries(map.whats()));
        item.put(EARLIER, entries(map.earlier()));
        return item;
    }

    private static AttributeValue entries(Map<String, List<Entry>> whats) {
        Map<String, AttributeValue> m = new HashMap<>();
        whats.forEach((what, entries) -> {
            List<AttributeValue> list = new ArrayList<>(entries.size());
            for (Entry entry : entries) {
                list.add(AttributeValue.fromM(Map.of(FROM_DAY, AttributeValue.fromS(entry.fromDate()),
                        SHARDS, AttributeValue.fromN(Integer.toString(entry.shards())))));
            }
            m.put(what, AttributeValue.fromL(list));
        });
        return AttributeValue.fromM(m);
    }

    private static Map<String, List<Entry>> entries(AttributeValue whats) {
        Map<String, List<Entry>> read = new TreeMap<>();
        whats.m().forEach((what, list) -> {
            List<Entry> entries = new ArrayList<>();
            for (AttributeValue entry : list.l()) {
                long day = LocalDate.parse(entry.m().get(FROM_DAY).s()).toEpochDay();
                entries.add(new Entry(day, Integer.parseInt(entry.m().get(SHARDS).n())));
            }
            read.put(what, entries);
        });
        return read;
    }

    /**
     * The map an item holds; {@link IllegalStateException} naming what is wrong when it is not one this code
     * can read, since a reader that guessed would put or look for records under the wrong keys.
     */
    public static Stored fromItem(Map<String, AttributeValue> item) {
        try {
            int format = Integer.parseInt(item.get(RecordItems.VERSION).n());
            if (format != FORMAT) {
                throw new IllegalStateException("the shard map item is of format " + format + ", and this code reads "
                        + FORMAT + ": deploy the code that wrote it.");
            }
            // An item written before earlier layouts were kept has none: its WHATs' plain keys are still read.
            Map<String, List<Entry>> earlier = item.containsKey(EARLIER) ? entries(item.get(EARLIER)) : Map.of();
            // Every write has it; an item without it (hand-made) counts as written long ago: the map is no
            // worse for it, only a change's wait would be shorter.
            long updatedAt = item.containsKey(UPDATED_AT) ? Long.parseLong(item.get(UPDATED_AT).n()) : 0;
            return new Stored(ShardMap.of(entries(item.get(WHATS)), earlier), Long.parseLong(item.get(REVISION).n()),
                    updatedAt);
        } catch (NullPointerException | IllegalArgumentException | DateTimeException e) {
            throw new IllegalStateException("the shard map item (" + KEY + ") is malformed: "
                    + (e.getMessage() == null ? "an attribute is missing or of another type." : e.getMessage())
                    + " Rewrite it with scripts/shards.sh.", e);
        }
    }

    /** Whether an item of the records table is the shard map. */
    public static boolean isShardMapItem(Map<String, AttributeValue> item) {
        AttributeValue hash = item.get(RecordItems.TIME_INDEX_KEY);
        return hash != null && KEY.equals(hash.s());
    }
}
