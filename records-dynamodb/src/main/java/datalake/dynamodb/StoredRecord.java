package datalake.dynamodb;

import datalake.records.Keys;
import datalake.records.Record;
import datalake.records.Times;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A record as a table holds it, read liberally: only what a reader needs to place and order the file
 * (its keys, its times, its url) must be readable; everything else stays as stored, in {@link #item()}.
 * This is how items written by another implementation are read (the Python datalake's first records
 * had neither {@code create_time} nor {@code size}, its latest table has no {@code size}, and it never
 * checked a hash), while {@link RecordItems} writes exactly the validated record.
 *
 * @param bucket     the day bucket of {@code time_index_key}
 * @param what       the WHAT of {@code time_index_key} (without the {@code #<shard>} of a sharded day)
 * @param where      the WHERE of {@code range_key}
 * @param id         the file id of {@code range_key} (everything after its first {@code ':'})
 * @param rangeKey   {@code range_key} exactly as stored, the position of pages and cursors
 * @param url        {@code url}, where the file is
 * @param start      {@code metadata.start}, ms
 * @param end        {@code metadata.end}, ms, or null for an instant
 * @param createTime {@code create_time} when it is a number, else null (it then orders before any other)
 * @param workId     {@code metadata.work_id} when it is a string, else null
 * @param item       the whole item, as stored
 */
public record StoredRecord(long bucket, String what, String where, String id, String rangeKey, String url,
        long start, Long end, Long createTime, String workId, Map<String, AttributeValue> item) {

    /** A record of ours as the latest table stores it. */
    public static StoredRecord ofLatest(Record record) {
        return fromItem(RecordItems.toLatestItem(record));
    }

    /** Reads an item of the records or the latest table; {@link UnreadableItemException} says what is missing. */
    public static StoredRecord fromItem(Map<String, AttributeValue> item) {
        String timeKey = string(item, RecordItems.TIME_INDEX_KEY);
        int timeSep = separator(timeKey);
        long bucket;
        try {
            bucket = Long.parseLong(timeKey.substring(0, timeSep));
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            throw new UnreadableItemException("its time_index_key is not <bucket>:<what>.");
        }
        String rangeKey = string(item, RecordItems.RANGE_KEY);
        int rangeSep = separator(rangeKey);
        if (rangeSep < 1) {
            throw new UnreadableItemException("its range_key is not <where>:<id>.");
        }
        String url = string(item, RecordItems.URL);
        AttributeValue metadataValue = item.get(RecordItems.METADATA);
        if (metadataValue == null || !metadataValue.hasM()) {
            throw new UnreadableItemException("it has no metadata map.");
        }
        Map<String, AttributeValue> metadata = metadataValue.m();
        Long start = time(metadata.get("start"));
        if (start == null) {
            throw new UnreadableItemException("its metadata.start is not a time.");
        }
        AttributeValue endValue = metadata.get("end");
        Long end = isNull(endValue) ? null : time(endValue);
        if (end == null && !isNull(endValue)) {
            throw new UnreadableItemException("its metadata.end is neither null nor a time.");
        }
        AttributeValue workId = metadata.get("work_id");
        String what = timeKey.substring(timeSep + 1);
        int shard = what.indexOf(Keys.SHARD_SEPARATOR);
        return new StoredRecord(bucket, shard < 0 ? what : what.substring(0, shard), rangeKey.substring(0, rangeSep),
                rangeKey.substring(rangeSep + 1), rangeKey, url, start, end, whole(item.get(RecordItems.CREATE_TIME)),
                workId != null && workId.s() != null ? workId.s() : null, item);
    }

    /** The stored metadata map, every field as stored. */
    public Map<String, AttributeValue> metadata() {
        return item.get(RecordItems.METADATA).m();
    }

    /** {@code size} in bytes when it is a number, else null (the first record format had none). */
    public Long size() {
        return whole(item.get(RecordItems.SIZE));
    }

    /** {@code what_where_key} of a latest-table item as stored, or {@code <what>:<where>} for a record. */
    public String whatWhereKey() {
        AttributeValue stored = item.get(RecordItems.WHAT_WHERE_KEY);
        return stored != null && stored.s() != null ? stored.s() : what + ":" + where;
    }

    /** The end of the file's time range, or its start when it is an instant. */
    public long endOrStart() {
        return end == null ? start : end;
    }

    /** Whether both items are of the same file: same url, range_key, create_time (or none) and metadata. */
    public boolean sameFile(StoredRecord other) {
        return url.equals(other.url) && rangeKey.equals(other.rangeKey) && Objects.equals(createTime, other.createTime)
                && metadata().equals(other.metadata());
    }

    /** Whether this file is newer than another for "latest": greater start, then greater create_time. */
    public boolean isNewerThan(StoredRecord other) {
        if (start != other.start) {
            return start > other.start;
        }
        long mine = createTime == null ? Long.MIN_VALUE : createTime;
        long theirs = other.createTime == null ? Long.MIN_VALUE : other.createTime;
        return mine > theirs;
    }

    /** The latest-table item of this record: the item as stored, keyed by {@code <what>:<where>}. */
    public Map<String, AttributeValue> toLatestItem() {
        Map<String, AttributeValue> latest = new HashMap<>(item);
        latest.put(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS(what + ":" + where));
        return latest;
    }

    @Override
    public String toString() {
        // Keys only: the item's other values (path, work_id) may be sensitive in logs.
        return "StoredRecord[" + bucket + ":" + what + ", " + rangeKey + "]";
    }

    private static String string(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        if (value == null || value.s() == null || value.s().isEmpty()) {
            throw new UnreadableItemException("it has no " + name + " string.");
        }
        return value.s();
    }

    /** The first ':' of a key with a part on each side, or an exception. */
    private static int separator(String key) {
        int sep = key.indexOf(':');
        if (sep < 0 || sep == key.length() - 1) {
            throw new UnreadableItemException("a key of it is not two parts joined by ':'.");
        }
        return sep;
    }

    /** A time as a number of ms (N, or S holding digits), or ISO-8601 text (S); null when it is none. */
    private static Long time(AttributeValue value) {
        if (value == null) {
            return null;
        }
        if (value.n() != null) {
            return whole(value);
        }
        if (value.s() != null) {
            String text = value.s().strip();
            try {
                return text.matches("-?[0-9]{1,18}") ? Long.valueOf(text) : Times.fromIso(text);
            } catch (DateTimeException | ArithmeticException e) {
                return null;
            }
        }
        return null;
    }

    /** A number attribute as a whole number (a fraction rounds down), or null when it is no number. */
    private static Long whole(AttributeValue value) {
        if (value == null || value.n() == null) {
            return null;
        }
        try {
            return new BigDecimal(value.n()).setScale(0, RoundingMode.FLOOR).longValueExact();
        } catch (ArithmeticException | NumberFormatException e) {
            return null;
        }
    }

    private static boolean isNull(AttributeValue value) {
        return value == null || Boolean.TRUE.equals(value.nul());
    }
}
