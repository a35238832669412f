package datalake.tools;

import datalake.dynamodb.RecordKey;
import datalake.records.Keys;
import datalake.records.Metadata;
import datalake.records.Record;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** What a {@code differing} finding says: how the index's records of an object differ from what the object makes. */
final class RecordDifference {
    private RecordDifference() {
    }

    /**
     * How the stored records differ from the expected ones (expiry aside: it follows the retention), or
     * null: the fields that differ, each record compared with the object's record of its key (or, for a
     * key the object does not make, with any of them: they differ only in their day bucket), and the
     * number of records when that differs.
     */
    static String of(Map<RecordKey, Record> expected, IndexSnapshot.Stored stored) {
        if (!stored.unreadable().isEmpty()) {
            return stored.unreadable().size() + " record(s) this code cannot read";
        }
        Record any = expected.values().iterator().next();
        Map<String, String> fields = new LinkedHashMap<>();
        Set<RecordKey> keys = new HashSet<>();
        for (Record have : stored.records()) {
            keys.add(RecordKey.of(have));
            fields(have, expected.getOrDefault(RecordKey.of(have), any)).forEach(fields::putIfAbsent);
        }
        boolean sameKeys = keys.equals(expected.keySet());
        if (fields.isEmpty() && sameKeys) {
            return null;
        }
        String records = sameKeys ? "" : (fields.isEmpty() ? "" : "; ") + "records: index " + keys.size()
                + ", object " + expected.size() + (keys.size() != expected.size() ? ""
                        : days(keys).equals(days(expected.keySet()))
                                ? " (under other shard keys than the shard map gives their days: written before a change)"
                                : " (other day buckets)");
        return (fields.isEmpty() ? "" : "differs in " + String.join(", ", fields.values())) + records;
    }

    /** The day buckets of record keys, whether sharded or not. */
    private static Set<Long> days(Set<RecordKey> keys) {
        Set<Long> days = new HashSet<>();
        keys.forEach(key -> days.add(Keys.TimeIndexKey.parse(key.timeIndexKey()).bucket()));
        return days;
    }

    /**
     * The fields in which an indexed record differs from the object's, by name, each with both values
     * but for path, work_id, hash and the extra fields (beyond version 0's nine, as one), which are named
     * only (a scheduled job's log need not hold them).
     */
    static Map<String, String> fields(Record index, Record object) {
        Metadata have = index.metadata();
        Metadata want = object.metadata();
        Map<String, String> fields = new LinkedHashMap<>();
        compare(fields, "id", have.id(), want.id(), true);
        compare(fields, "what", have.what(), want.what(), true);
        compare(fields, "where", have.where(), want.where(), true);
        compare(fields, "start", have.start(), want.start(), true);
        compare(fields, "end", have.end(), want.end(), true);
        compare(fields, "work_id", have.workId(), want.workId(), false);
        compare(fields, "path", have.path(), want.path(), false);
        compare(fields, "hash", have.hash(), want.hash(), false);
        // a record this ingester wrote before it kept them lacks them
        compare(fields, "extra fields", have.extras(), want.extras(), false);
        compare(fields, "size", index.size(), object.size(), true);
        compare(fields, "create_time", index.createTime(), object.createTime(), true);
        return fields;
    }

    private static void compare(Map<String, String> fields, String name, Object index, Object object, boolean values) {
        if (!Objects.equals(index, object)) {
            fields.put(name, values ? name + " (index " + index + ", object " + object + ")" : name);
        }
    }
}
