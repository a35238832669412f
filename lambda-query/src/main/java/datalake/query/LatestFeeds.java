package datalake.query;

/**
 * The latest table read as a list of feeds, for {@code /v0/archive/feeds/}: its entries in the table's
 * own (hash) order, a slice at a time. The AWS implementation is {@link DynamoLatestFeeds}.
 */
public interface LatestFeeds {

    /**
     * Entries of the latest table, each the record of one WHAT and WHERE's newest file.
     *
     * @param what  keep only this WHAT's feeds, or null for all
     * @param after the {@code what_where_key} to continue after, or null from the beginning
     * @param limit at most this many entries are read (fewer may match {@code what})
     * @return the records read; {@code lastKey} is the {@code what_where_key} to continue after, or null at the end
     */
    RecordsTable.Slice scan(String what, String after, int limit);
}
