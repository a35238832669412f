package datalake.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import datalake.records.Metadata;
import datalake.records.Record;
import datalake.records.Keys.TimeIndexKey;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Explicit mapping between {@link Record}s and DynamoDB items (no bean reflection): the same item
 * shape in the records table and, with {@code what_where_key} added, in the latest table.
 */
public final class RecordItems {
    /** Records table hash key: {@code <bucket>:<what>}, or {@code <bucket>:<what>#<shard>} on a sharded day. */
    public static final String TIME_INDEX_KEY = "time_index_key";
    /** Records table range key and GSI range key: {@code <where>:<id>}. */
    public static final String RANGE_KEY = "range_key";
    /** GSI {@value #WORK_ID_INDEX} hash key: {@code <work_id>:<what>} or {@code null<id>:<what>}. */
    public static final String WORK_ID_INDEX_KEY = "work_id_index_key";
    /** Latest table hash key: {@code <what>:<where>}. */
    public static final String WHAT_WHERE_KEY = "what_where_key";
    public static final String WORK_ID_INDEX = "work-id-index";
    public static final String VERSION = "version";
    public static final String URL = "url";
    public static final String CREATE_TIME = "create_time";
    public static final String SIZE = "size";
    public static final String METADATA = "metadata";
    /** Epoch seconds for DynamoDB TTL; present only when a retention is configured. */
    public static final String EXPIRES_AT = "expires_at";

    private static final AttributeValue NULL = AttributeValue.fromNul(true);

    private RecordItems() {
    }

    /** The records-table item of a record. */
    public static Map<String, AttributeValue> toItem(Record record) {
        Map<String, AttributeValue> item = new HashMap<>(16);
        item.put(TIME_INDEX_KEY, AttributeValue.fromS(record.timeIndexKey().toString()));
        item.put(RANGE_KEY, AttributeValue.fromS(record.rangeKey().toString()));
        item.put(WORK_ID_INDEX_KEY, AttributeValue.fromS(record.workIdIndexKey().toString()));
        item.put(VERSION, number(record.version()));
        item.put(URL, AttributeValue.fromS(record.url()));
        item.put(CREATE_TIME, number(record.createTime()));
        item.put(SIZE, number(record.size()));
        item.put(METADATA, AttributeValue.fromM(metadata(record.metadata())));
        if (record.expiresAt() != null) {
            item.put(EXPIRES_AT, number(record.expiresAt()));
        }
        return item;
    }

    /** The latest-table item of a record: its records-table item keyed by {@code <what>:<where>}. */
    public static Map<String, AttributeValue> toLatestItem(Record record) {
        Map<String, AttributeValue> item = toItem(record);
        item.put(WHAT_WHERE_KEY, AttributeValue.fromS(record.whatWhereKey().toString()));
        return item;
    }

    /** The record stored in an item of either table. */
    public static Record fromItem(Map<String, AttributeValue> item) {
        try {
            TimeIndexKey timeKey = TimeIndexKey.parse(item.get(TIME_INDEX_KEY).s());
            AttributeValue expires = item.get(EXPIRES_AT);
            return new Record(timeKey.bucket(), timeKey.shard(), item.get(URL).s(),
                    Long.parseLong(item.get(CREATE_TIME).n()), Long.parseLong(item.get(SIZE).n()), metadataFrom(item.get(METADATA).m()),
                    expires == null || isNull(expires) ? null : Long.parseLong(expires.n()));
        } catch (NullPointerException | IllegalArgumentException e) {
            throw new IllegalArgumentException("the item is not a datalake record (version 0).", e);
        }
    }

    /**
     * The metadata map of a record item (times in ms; {@code end} and {@code work_id} NULL when null), the
     * extra fields beside the nine with their natural types ({@link AttributeJson#toAttribute}).
     */
    public static Map<String, AttributeValue> metadata(Metadata m) {
        Map<String, AttributeValue> map = new HashMap<>(16);
        map.put("version", number(m.version()));
        map.put("start", number(m.start()));
        map.put("end", m.end() == null ? NULL : number(m.end()));
        map.put("path", AttributeValue.fromS(m.path()));
        map.put("work_id", m.workId() == null ? NULL : AttributeValue.fromS(m.workId()));
        map.put("where", AttributeValue.fromS(m.where()));
        map.put("what", AttributeValue.fromS(m.what()));
        map.put("id", AttributeValue.fromS(m.id()));
        map.put("hash", AttributeValue.fromS(m.hash()));
        m.extras().forEach((name, value) -> map.put(name, AttributeJson.toAttribute(value)));
        return map;
    }

    /** The metadata of a record item's map (or a per-object item's), extra fields included, by name. */
    static Metadata metadataFrom(Map<String, AttributeValue> map) {
        AttributeValue end = map.get("end");
        AttributeValue workId = map.get("work_id");
        Map<String, JsonNode> extras = new TreeMap<>();
        map.forEach((name, value) -> {
            if (!Metadata.FIELDS.contains(name)) {
                extras.put(name, AttributeJson.toJson(value));
            }
        });
        return new Metadata(
                Long.parseLong(map.get("start").n()),
                end == null || isNull(end) ? null : Long.valueOf(end.n()),
                map.get("path").s(),
                workId == null || isNull(workId) ? null : workId.s(),
                map.get("where").s(),
                map.get("what").s(),
                map.get("id").s(),
                map.get("hash").s(),
                extras);
    }

    private static boolean isNull(AttributeValue value) {
        return Boolean.TRUE.equals(value.nul());
    }

    private static AttributeValue number(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }
}
