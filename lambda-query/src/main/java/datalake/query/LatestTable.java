package datalake.query;

import datalake.dynamodb.StoredRecord;
import java.util.Optional;

/**
 * The latest table as the query API reads it (optional, {@code DATALAKE_LATEST_TABLE}, kept by the
 * ingester): the entry of one WHAT and WHERE for {@code /latest}, and every entry, a slice at a time,
 * for {@code /feeds/}. The AWS implementation is {@link DynamoLatestTable}.
 */
interface LatestTable {
    /** The entry of a WHAT and WHERE; empty when there is none, or when it cannot be read (logged and counted). */
    Optional<StoredRecord> latest(String what, String where);

    /**
     * Entries of the table in its own (hash) order, each the record of one WHAT and WHERE's newest file.
     *
     * @param what  keep only this WHAT's feeds, or null for all
     * @param after the {@code what_where_key} to continue after, or null from the beginning
     * @param limit at most this many entries are read (fewer may match {@code what})
     * @return the records read; {@code lastKey} is the {@code what_where_key} to continue after, or null at the end
     */
    RecordsTable.Slice scan(String what, String after, int limit);
}
