package datalake.query;

import datalake.dynamodb.StoredRecord;
import datalake.records.Keys.TimeIndexKey;
import java.util.List;

/**
 * The records table as the query API reads it: one key-ordered slice at a time, from the table
 * ({@code time_index_key}) or from the GSI {@code work-id-index}. The AWS implementation is
 * {@link DynamoRecordsTable}.
 */
interface RecordsTable {

    /**
     * Records under one {@code time_index_key} (a day bucket of a WHAT, or one shard of it), in range-key
     * order. {@link BucketReader} reads a whole day, however it is laid out.
     *
     * @param rangePrefix {@code <where>:} to keep one WHERE, or null
     * @param after       return only range keys greater than this one, or null from the beginning
     * @param limit       at most this many records are read
     */
    Slice queryKey(TimeIndexKey key, String rangePrefix, String after, int limit);

    /**
     * Records with one work id and WHAT, in range-key order. A file spanning several buckets has one
     * record per bucket, all with the same range key, next to each other.
     */
    Slice queryWorkId(String workId, String what, String rangePrefix, String after, int limit);

    /**
     * Some records in range-key order.
     *
     * @param records the records read (within the prefix, if one was given), read liberally: an item
     *                that is no record at all is left out, logged and counted
     * @param lastKey when not null, more records may follow: ask again with {@code after = lastKey}
     */
    record Slice(List<StoredRecord> records, String lastKey) {
        public Slice {
            records = List.copyOf(records);
        }
    }
}
