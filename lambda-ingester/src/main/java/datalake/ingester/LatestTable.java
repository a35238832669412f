package datalake.ingester;

import datalake.dynamodb.StoredRecord;
import datalake.records.Keys.WhatWhereKey;
import datalake.records.Record;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * The latest table as the ingester keeps it (optional, {@code DATALAKE_LATEST_TABLE}): the newest file of
 * each WHAT and WHERE, offered with a condition and replaced when its file leaves the index. The AWS
 * implementation is {@link DynamoLatestTable}.
 */
interface LatestTable {
    /**
     * Offers the record of a file as the latest of its what:where. An older file never replaces a
     * newer one (greater start, then greater create_time), whatever the order of the calls.
     *
     * @return whether the record is now the latest; false when a newer (or the same) one is kept
     */
    boolean offer(Record record);

    /**
     * The entry of what:where (strongly consistent), read liberally as the query API reads it (an entry of
     * the Python datalake's formats too); empty when there is none or it is not a record at all.
     */
    Optional<StoredRecord> current(WhatWhereKey key);

    /**
     * The entries of several what:wheres in one strongly consistent read. A key is absent from the answer
     * when it has no entry, when its entry is not a record this code reads, or when the table did not
     * answer for it: whoever asks must treat absent as "unknown".
     */
    Map<WhatWhereKey, Record> current(Collection<WhatWhereKey> keys);

    /**
     * Replaces the entry of {@code expected}'s what:where if it still is {@code expected} (same url,
     * range_key and create_time, or still none): with {@code replacement}'s item as stored (a record the
     * Python datalake wrote stays as it is, as the query API reads it), or with no entry when it is empty.
     * An entry changed in the meantime stays: whoever changed it knew better.
     *
     * @return whether the entry was replaced
     */
    boolean replace(StoredRecord expected, Optional<StoredRecord> replacement);
}
