package datalake.query;

import datalake.dynamodb.StoredRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * Pages of a work-id query on the GSI {@code work-id-index}. A file spanning several buckets has one
 * record per bucket there, all with its range key and adjacent; the first is returned and the rest
 * skipped, and the next page starts after the last returned range key, so each file appears once.
 *
 * <p>The index key of a file without a work_id is {@code null<id>:<what>}, which a real work_id that
 * begins with "null" can equal ({@code nullable} and a file with id {@code able}): only records whose
 * {@code metadata.work_id} is the requested one are returned.
 */
record WorkIdQueryPager(RecordsTable table, int pageSize, int readLimit) {
    Page page(FilesQuery.ByWorkId query, Cursor cursor) {
        List<StoredRecord> page = new ArrayList<>(pageSize);
        String position = cursor == null ? null : cursor.after();
        String lastReturned = position;
        do {
            RecordsTable.Slice slice = table.queryWorkId(query.workId(), query.what(), query.rangePrefix(), position,
                    readLimit);
            for (StoredRecord record : slice.records()) {
                String key = record.rangeKey();
                if (key.equals(lastReturned) || !query.workId().equals(record.workId())) {
                    continue;
                }
                if (page.size() == pageSize) {
                    return new Page(page, new Cursor(null, lastReturned));
                }
                page.add(record);
                lastReturned = key;
            }
            position = slice.lastKey();
        } while (position != null);
        return new Page(page, null);
    }
}
