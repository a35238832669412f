package datalake.ingester;

import datalake.records.Record;
import java.util.List;
import java.util.Map;

/** Where records are written: the records table and, optionally, the latest table. */
public interface RecordStore {
    /**
     * Writes records whose keys are all distinct, retrying what the store leaves undone until the
     * deadline. Never throws for a failing store: returns the failure of every record not written
     * (an empty map when all were).
     */
    Map<Record, Failure> write(List<Record> records, Deadline deadline);

    /** Whether this store keeps a latest table ({@code DATALAKE_LATEST_TABLE}). */
    boolean keepsLatest();

    /**
     * Offers the record of a file as the latest of its what:where. An older file never replaces a
     * newer one (greater start, then greater create_time), whatever the order of the calls.
     *
     * @return whether the record is now the latest; false when a newer (or the same) one is kept
     */
    boolean offerLatest(Record record);
}
