package datalake.query;

import datalake.dynamodb.RecordItems;
import datalake.dynamodb.StoredRecord;
import datalake.records.Metadata;
import datalake.records.Record;
import datalake.records.RecordFactory;
import datalake.records.ShardMap;
import datalake.records.TimeBuckets;
import java.util.ArrayList;
import java.util.List;

/** Test files: metadata and the records the ingester's RecordFactory makes of them. */
final class TestFiles {
    static final long DAY = TimeBuckets.DAY_MS;
    /** 2024-01-01T00:00:00Z, bucket 19723. */
    static final long T0 = 1_704_067_200_000L;
    static final String HASH = "0123456789abcdef0123456789abcdef";
    private static final RecordFactory FACTORY = new RecordFactory();

    private TestFiles() {
    }

    static Metadata file(String id, String what, String where, long start, Long end) {
        return new Metadata(start, end, "/var/log/" + id, null, where, what, id, HASH);
    }

    static Metadata file(String id, String what, String where, long start, Long end, String workId) {
        return new Metadata(start, end, "/var/log/" + id, workId, where, what, id, HASH);
    }

    static List<Record> records(Metadata m) {
        return records(m, 1_000L);
    }

    static List<Record> records(Metadata m, long createTime) {
        return FACTORY.records(m, "s3://bucket/" + m.id() + "/data", createTime, 42L);
    }

    static List<Record> records(List<Metadata> files) {
        return records(files, ShardMap.EMPTY);
    }

    /** The records of the files as the ingester writes them under this shard map. */
    static List<Record> records(List<Metadata> files, ShardMap shards) {
        RecordFactory factory = new RecordFactory(TimeBuckets.DEFAULT_MAX_SPAN, null, () -> shards);
        List<Record> all = new ArrayList<>();
        files.forEach(m -> all.addAll(factory.records(m, "s3://bucket/" + m.id() + "/data", 1_000L, 42L)));
        return all;
    }

    /** A record as the query reads it back from its item. */
    static StoredRecord stored(Record record) {
        return StoredRecord.fromItem(RecordItems.toItem(record));
    }

    /** A latest-table entry as the query reads it back from its item. */
    static StoredRecord storedLatest(Record record) {
        return StoredRecord.fromItem(RecordItems.toLatestItem(record));
    }

    /** The records of a file as the query reads them back. */
    static List<StoredRecord> stored(Metadata m) {
        return records(m).stream().map(TestFiles::stored).toList();
    }

    /** The test's own statement of a match: [start, end] (an instant: start) meets [s, e], both inclusive. */
    static boolean intersects(Metadata m, long s, long e) {
        return m.start() <= e && m.endOrStart() >= s;
    }
}
