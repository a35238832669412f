package datalake.query;

import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;
import static datalake.query.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import datalake.records.Metadata;
import datalake.dynamodb.StoredRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkIdQueryPagerTest {
    private final InMemoryRecordsTable table = new InMemoryRecordsTable();

    private static List<String> readAll(WorkIdQueryPager pager, FilesQuery.ByWorkId query) {
        List<String> ids = new ArrayList<>();
        Cursor cursor = null;
        do {
            Page page = pager.page(query, cursor == null ? null : CursorCodec.decode(query, CursorCodec.encode(query, cursor)));
            page.records().forEach(r -> ids.add(r.id()));
            cursor = page.next();
        } while (cursor != null);
        return ids;
    }

    @Test
    void aFileInManyBucketsIsReturnedOnceWhateverThePageAndSliceSizes() {
        // given files of one work id spanning 1 to 9 buckets, and others of another work id
        List<Metadata> files = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            files.add(file(String.format("f%02d", i), "w", i % 2 == 0 ? "web" : "db", T0 + i * DAY,
                    T0 + i * DAY + (i % 9) * DAY, "job"));
            files.add(file(String.format("g%02d", i), "w", "web", T0, null, "other-job"));
        }
        table.put(TestFiles.records(files));
        List<String> expected = files.stream().filter(m -> "job".equals(m.workId()))
                .sorted((a, b) -> (a.where() + ":" + a.id()).compareTo(b.where() + ":" + b.id()))
                .map(Metadata::id).toList();

        for (int pageSize : new int[] {1, 4, 30, 100}) {
            for (int readLimit : new int[] {1, 3, 101}) {
                // when every page is read
                List<String> got = readAll(new WorkIdQueryPager(table, pageSize, readLimit),
                        new FilesQuery.ByWorkId("w", null, "job"));

                // then every file came once, in range-key order
                assertEquals(expected, got, "page " + pageSize + ", slice " + readLimit);
            }
        }
    }

    @Test
    void whereNarrowsByRangeKeyAcrossPages() {
        List<Metadata> files = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            files.add(file("f" + i, "w", List.of("a", "web", "webz").get(i % 3), T0, T0 + 2 * DAY, "job"));
        }
        table.put(TestFiles.records(files));

        List<String> got = readAll(new WorkIdQueryPager(table, 2, 2), new FilesQuery.ByWorkId("w", "web", "job"));

        assertEquals(List.of("f1", "f10", "f4", "f7"), got);
    }

    @Test
    void nothingMatchingIsAnEmptyLastPage() {
        Page page = new WorkIdQueryPager(table, 100, 101).page(new FilesQuery.ByWorkId("w", null, "none"), null);

        assertEquals(List.<StoredRecord>of(), page.records());
        assertNull(page.next());
    }
}
