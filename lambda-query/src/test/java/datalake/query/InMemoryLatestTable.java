package datalake.query;

import datalake.dynamodb.StoredRecord;
import datalake.records.Keys.WhatWhereKey;
import datalake.records.Record;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A latest table in memory, scanned as DynamoDB scans: in an order of its own (here, insertion
 * order, not sorted), at most {@code limit} items evaluated a call before the filter on WHAT, and
 * {@code lastKey} set whenever the call stopped at its limit.
 */
final class InMemoryLatestTable implements LatestTable {
    private final Map<String, StoredRecord> entries = new LinkedHashMap<>();
    int scans;

    InMemoryLatestTable put(Record record) {
        entries.put(record.whatWhereKey().toString(), TestFiles.storedLatest(record));
        return this;
    }

    @Override
    public Optional<StoredRecord> latest(String what, String where) {
        return Optional.ofNullable(entries.get(new WhatWhereKey(what, where).toString()));
    }

    @Override
    public RecordsTable.Slice scan(String what, String after, int limit) {
        scans++;
        List<String> keys = new ArrayList<>(entries.keySet());
        int from = after == null ? 0 : keys.indexOf(after) + 1;
        if (after != null && from == 0) {
            throw new IllegalArgumentException("ExclusiveStartKey is not a key of the table: " + after);
        }
        int to = Math.min(keys.size(), from + limit);
        List<StoredRecord> records = new ArrayList<>();
        for (String key : keys.subList(from, to)) {
            if (what == null || key.startsWith(what + ":")) {
                records.add(entries.get(key));
            }
        }
        return new RecordsTable.Slice(records, to < keys.size() || (to == from + limit && to > from) ? keys.get(to - 1) : null);
    }
}
