package datalake.ingester;

import datalake.records.Keys.WhatWhereKey;
import datalake.records.Record;
import java.util.Collection;
import java.util.Map;

/**
 * The optional latest table ({@code DATALAKE_LATEST_TABLE}): the newest file of each WHAT and WHERE.
 * The AWS implementation is {@link DynamoLatestTable}.
 */
public interface LatestTable {
    /**
     * Offers the record of a file as the latest of its what:where. An older file never replaces a
     * newer one (greater start, then greater create_time), whatever the order of the calls.
     *
     * @return whether the record is now the latest; false when a newer (or the same) one is kept
     */
    boolean offer(Record record);

    /** The entry of what:where (strongly consistent), or null when there is none or it is not a record this code reads. */
    Record current(WhatWhereKey key);

    /**
     * The entries of several what:wheres in one strongly consistent read. A key is absent from the answer
     * when it has no entry, when its entry is not a record this code reads, or when the table did not
     * answer for it: whoever asks must treat absent as "unknown".
     */
    Map<WhatWhereKey, Record> current(Collection<WhatWhereKey> keys);

    /**
     * Replaces the entry of {@code expected}'s what:where if it still is {@code expected} (same url,
     * create_time and id): with {@code replacement}, or no entry when it is null. An entry changed in
     * the meantime stays: whoever changed it knew better.
     *
     * @return whether the entry was replaced
     */
    boolean replace(Record expected, Record replacement);
}
