package datalake.dynamodb;

import datalake.dynamodb.ObjectEntry.State;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The per-object item ({@link ObjectEntry}) in the records table, mapped explicitly. It lives in a key
 * space of its own: its {@code time_index_key} is the object's URL ({@code s3://...}, never a day number
 * followed by {@code :}, which every query of the table asks for) and its {@code range_key} is
 * {@value #RANGE_KEY_VALUE} (a record's is {@code <where>:<id>}); it has no {@code work_id_index_key},
 * so the GSI never holds it. No time, work-id or latest query can therefore return it
 * (docs/DESIGN.md, "The index follows the bucket").
 */
public final class ObjectItems {
    /** The range key of every per-object item (a record's range key always holds a {@code :}). */
    public static final String RANGE_KEY_VALUE = "object";
    public static final String OBSERVED_AT = "observed_at";
    public static final String COMMIT_ID = "commit_id";
    public static final String STATE = "state";
    public static final String ID = "id";
    public static final String ETAG = "etag";
    public static final String VERSION_ID = "version_id";
    public static final String SEQUENCER = "sequencer";
    public static final String RECORD_KEYS = "record_keys";
    public static final String STALE_KEYS = "stale_keys";
    /** The replaced file ({@link ObjectEntry#replaced}): a map of its {@code metadata}, {@code create_time} and {@code size}. */
    public static final String REPLACED = "replaced";


    private ObjectItems() {
    }

    /** The primary key of the per-object item of {@code url}. */
    public static Map<String, AttributeValue> key(String url) {
        return Map.of(RecordItems.TIME_INDEX_KEY, AttributeValue.fromS(url),
                RecordItems.RANGE_KEY, AttributeValue.fromS(RANGE_KEY_VALUE));
    }

    /** Whether an item of the records table is a per-object item rather than a record. */
    public static boolean isObjectItem(Map<String, AttributeValue> item) {
        AttributeValue hash = item.get(RecordItems.TIME_INDEX_KEY);
        AttributeValue range = item.get(RecordItems.RANGE_KEY);
        return hash != null && hash.s() != null && hash.s().startsWith("s3://")
                && range != null && RANGE_KEY_VALUE.equals(range.s());
    }

    /** The attributes of an entry besides its key, as the ingester sets them (nulls omitted). */
    public static Map<String, AttributeValue> attributes(ObjectEntry e) {
        Map<String, AttributeValue> values = new HashMap<>(16);
        values.put(RecordItems.URL, AttributeValue.fromS(e.url()));
        values.put(OBSERVED_AT, number(e.observedAt()));
        values.put(COMMIT_ID, AttributeValue.fromS(e.commitId()));
        values.put(STATE, AttributeValue.fromS(e.state().text()));
        if (e.indexed()) {
            values.put(ID, AttributeValue.fromS(e.metadata().id()));
            values.put(RecordItems.METADATA, AttributeValue.fromM(RecordItems.metadata(e.metadata())));
            values.put(RecordItems.CREATE_TIME, number(e.createTime()));
            values.put(RecordItems.SIZE, number(e.size()));
        }
        putText(values, ETAG, e.etag());
        putText(values, VERSION_ID, e.versionId());
        putText(values, SEQUENCER, e.sequencer());
        values.put(RECORD_KEYS, keys(e.recordKeys()));
        values.put(STALE_KEYS, keys(e.staleKeys()));
        if (e.replaced() != null) {
            values.put(REPLACED, AttributeValue.fromM(Map.of(RecordItems.METADATA,
                    AttributeValue.fromM(RecordItems.metadata(e.replaced().metadata())),
                    RecordItems.CREATE_TIME, number(e.replaced().createTime()),
                    RecordItems.SIZE, number(e.replaced().size()))));
        }
        if (e.expiresAt() != null) {
            values.put(RecordItems.EXPIRES_AT, number(e.expiresAt()));
        }
        return values;
    }

    /** The whole item of an entry. */
    public static Map<String, AttributeValue> toItem(ObjectEntry e) {
        Map<String, AttributeValue> item = attributes(e);
        item.putAll(key(e.url()));
        return item;
    }

    /** A list of record keys as an item attribute (a list, so that an update can append to it). */
    public static AttributeValue keys(List<RecordKey> keys) {
        List<AttributeValue> list = new ArrayList<>(keys.size());
        for (RecordKey key : keys) {
            list.add(AttributeValue.fromS(key.toString()));
        }
        return AttributeValue.fromL(list);
    }

    /** The record keys of an item attribute (absent: none). */
    public static List<RecordKey> keysOf(AttributeValue value) {
        if (value == null || !value.hasL()) {
            return List.of();
        }
        List<RecordKey> keys = new ArrayList<>(value.l().size());
        for (AttributeValue key : value.l()) {
            keys.add(RecordKey.parse(key.s()));
        }
        return keys;
    }

    /** The entry of a per-object item; {@link IllegalArgumentException} when the item is not one. */
    public static ObjectEntry fromItem(Map<String, AttributeValue> item) {
        if (!isObjectItem(item)) {
            throw new IllegalArgumentException("the item is not a per-object item.");
        }
        try {
            State state = State.of(item.get(STATE).s());
            boolean indexed = state == State.INDEXED;
            AttributeValue expires = item.get(RecordItems.EXPIRES_AT);
            return new ObjectEntry(item.get(RecordItems.URL).s(), Long.parseLong(item.get(OBSERVED_AT).n()),
                    item.get(COMMIT_ID).s(), state,
                    indexed ? RecordItems.metadataFrom(item.get(RecordItems.METADATA).m()) : null,
                    indexed ? Long.parseLong(item.get(RecordItems.CREATE_TIME).n()) : 0L,
                    indexed ? Long.parseLong(item.get(RecordItems.SIZE).n()) : 0L,
                    text(item.get(ETAG)), text(item.get(VERSION_ID)), text(item.get(SEQUENCER)),
                    keysOf(item.get(RECORD_KEYS)), keysOf(item.get(STALE_KEYS)), replaced(item.get(REPLACED)),
                    expires == null || expires.n() == null ? null : Long.valueOf(expires.n()));
        } catch (NullPointerException | IllegalArgumentException e) {
            throw new IllegalArgumentException("the per-object item is malformed.", e);
        }
    }

    private static ObjectEntry.IndexedFile replaced(AttributeValue value) {
        if (value == null || !value.hasM()) {
            return null;
        }
        Map<String, AttributeValue> file = value.m();
        return new ObjectEntry.IndexedFile(RecordItems.metadataFrom(file.get(RecordItems.METADATA).m()),
                Long.parseLong(file.get(RecordItems.CREATE_TIME).n()), Long.parseLong(file.get(RecordItems.SIZE).n()));
    }

    private static void putText(Map<String, AttributeValue> values, String name, String text) {
        if (text != null && !text.isEmpty()) {
            values.put(name, AttributeValue.fromS(text));
        }
    }

    private static String text(AttributeValue value) {
        return value == null || Boolean.TRUE.equals(value.nul()) ? null : value.s();
    }

    private static AttributeValue number(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

}
