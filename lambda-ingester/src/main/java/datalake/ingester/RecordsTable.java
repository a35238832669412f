package datalake.ingester;

import datalake.dynamodb.StoredRecord;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.Record;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The records table as the ingester writes it, and reads it back for the latest table. The AWS
 * implementation is {@link DynamoRecordsTable}.
 */
interface RecordsTable {
    /**
     * Writes records whose keys are all distinct, retrying what the table leaves undone until the
     * deadline. Never throws for a failing table: returns the failure of every record not written
     * (an empty map when all were).
     */
    Map<Record, Failure> write(List<Record> records, Deadline deadline);

    /**
     * The newest file (greatest start, then create_time) at {@code where} among the records of these
     * day buckets' keys (one WHAT's, as the shard map gives them: {@code ShardMap.timeIndexKeys}), read
     * newest bucket first and no further than an older bucket could hold a later start; empty when there
     * is none. For the latest table, when its file has left the index. Records are read liberally, as the
     * query API reads them: one the Python datalake wrote (no {@code create_time} or {@code size}) is a
     * candidate too; only an item not even {@link StoredRecord} reads is left out.
     */
    Optional<StoredRecord> newest(String where, List<TimeIndexKey> days);
}
