package datalake.query;

import datalake.dynamodb.StoredRecord;
import java.util.List;

/** One page of a files query: its records, and where the next page starts (null on the last page). */
record Page(List<StoredRecord> records, Cursor next) {
    Page {
        records = List.copyOf(records);
    }
}
