package datalake.query;

import datalake.dynamodb.RecordItems;
import datalake.dynamodb.StoredRecord;
import datalake.dynamodb.UnreadableItemException;
import datalake.lambda.JsonLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Reads table items as records for the query. An item that cannot be read even liberally (no keys,
 * times or url) must not fail the request nor vanish unnoticed: it is left out, logged with its keys
 * (identifiers only) and why, and counted in the metric {@value #METRIC} by {@code Function}.
 *
 * @param function the {@code Function} dimension of the metric (the Lambda function's name)
 */
record UnreadableItems(JsonLog log, String function) {
    static final String METRIC = "UnreadableItems";
    private static final String[] KEYS = {RecordItems.WHAT_WHERE_KEY, RecordItems.TIME_INDEX_KEY, RecordItems.RANGE_KEY};

    /** The items that can be read, in order. */
    List<StoredRecord> read(String table, List<Map<String, AttributeValue>> items) {
        List<StoredRecord> records = new ArrayList<>(items.size());
        int unreadable = 0;
        for (Map<String, AttributeValue> item : items) {
            try {
                records.add(StoredRecord.fromItem(item));
            } catch (UnreadableItemException e) {
                unreadable++;
                report(table, item, e);
            }
        }
        count(unreadable);
        return records;
    }

    /** The item as a record, or empty when it cannot be read. */
    Optional<StoredRecord> read(String table, Map<String, AttributeValue> item) {
        List<StoredRecord> read = read(table, List.of(item));
        return read.isEmpty() ? Optional.empty() : Optional.of(read.get(0));
    }

    private void report(String table, Map<String, AttributeValue> item, UnreadableItemException e) {
        log.warn("an item is not a datalake record; it is left out of the answer", g -> {
            g.writeStringField("table", JsonLog.shorten(table));
            for (String key : KEYS) {
                AttributeValue value = item.get(key);
                JsonLog.field(g, key, value == null || value.s() == null ? null : JsonLog.shorten(value.s()));
            }
            g.writeStringField("reason", e.getMessage());
        });
    }

    private void count(int unreadable) {
        if (unreadable > 0) {
            log.metrics(List.of(List.of("Function")), Map.of("Function", function),
                    List.of(JsonLog.Metric.count(METRIC, unreadable)));
        }
    }
}
