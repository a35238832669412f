package datalake.dynamodb;

import datalake.records.Keys.RangeKey;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.Keys.WhatWhereKey;
import datalake.records.Record;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The primary key of one record item: {@code time_index_key} and {@code range_key}. Written into a
 * per-object item as one string, {@code "<time_index_key> <range_key>"}: a time index key is a day
 * number, {@code :} and a slug (and {@code #<shard>} on a sharded day), so it never holds a space and the
 * first space always separates them.
 */
public record RecordKey(String timeIndexKey, String rangeKey) {
    public RecordKey {
        if (timeIndexKey == null || rangeKey == null || timeIndexKey.isEmpty() || rangeKey.isEmpty()
                || timeIndexKey.indexOf(' ') >= 0) {
            throw new IllegalArgumentException("a record key needs a time_index_key without spaces and a range_key.");
        }
    }

    public static RecordKey of(Record record) {
        return new RecordKey(record.timeIndexKey().toString(), record.rangeKey().toString());
    }

    /** Reads {@link #toString()}'s form. */
    public static RecordKey parse(String text) {
        int space = text == null ? -1 : text.indexOf(' ');
        if (space <= 0 || space == text.length() - 1) {
            throw new IllegalArgumentException("a record key is \"<time_index_key> <range_key>\".");
        }
        return new RecordKey(text.substring(0, space), text.substring(space + 1));
    }

    /** The latest table's key of the record's file: the WHAT of its time index key, the WHERE of its range key. */
    public WhatWhereKey whatWhereKey() {
        return new WhatWhereKey(TimeIndexKey.parse(timeIndexKey).what(), RangeKey.parse(rangeKey).where());
    }

    /** The key as the table's primary key. */
    public Map<String, AttributeValue> item() {
        return Map.of(RecordItems.TIME_INDEX_KEY, AttributeValue.fromS(timeIndexKey),
                RecordItems.RANGE_KEY, AttributeValue.fromS(rangeKey));
    }

    @Override
    public String toString() {
        return timeIndexKey + ' ' + rangeKey;
    }
}
