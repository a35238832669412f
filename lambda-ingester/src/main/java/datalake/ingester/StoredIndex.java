package datalake.ingester;

import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.RecordKey;
import datalake.dynamodb.StoredRecord;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.Keys.WhatWhereKey;
import datalake.records.Record;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The index as the ingester keeps it, for the tools that check and repair it ({@code scripts/reconcile.sh}):
 * an object's HEAD as the ingester reads it, its per-object item, the records a repair removes or writes
 * back, the newest file of some day buckets and the latest table. It makes the few calls a repair needs
 * through the ingester's own tables, which stay package-private: what the ingester writes goes through
 * {@link Ingester#follow}, but for the records a repair writes back as an object's entry names them.
 */
public final class StoredIndex {
    private final ObjectStore store;
    private final RecordsTable records;
    private final ObjectIndex objects;
    private final Optional<LatestTable> latest;

    StoredIndex(ObjectStore store, RecordsTable records, ObjectIndex objects, Optional<LatestTable> latest) {
        this.store = store;
        this.records = records;
        this.objects = objects;
        this.latest = latest;
    }

    /** The index on AWS as {@link Ingester#forAws} keeps it: the configuration's bucket reads and tables. */
    public static StoredIndex forAws(IngesterConfig config, IngesterClients clients) {
        return new StoredIndex(new S3ObjectStore(clients.s3()),
                new DynamoRecordsTable(clients.dynamoDb(), config.recordsTable(), Backoff.standard()),
                new DynamoObjectIndex(clients.dynamoDb(), config.recordsTable(), Backoff.standard()),
                Optional.ofNullable(config.latestTable()).map(t -> new DynamoLatestTable(clients.dynamoDb(), t)));
    }

    /** What HeadObject tells of the object, as the ingester reads it; empty when there is no such object. */
    public Optional<StoredObject> head(String bucket, String key) {
        return store.head(bucket, key);
    }

    /** The object's per-object item (consistent read), if it has one. */
    public Optional<ObjectEntry> object(String url) {
        return Optional.ofNullable(objects.read(List.of(url)).get(url));
    }

    /** Deletes these records of the URL, each only while it still names the URL; answers how many went. */
    public int removeRecords(String url, Collection<RecordKey> keys) {
        return objects.removeRecords(url, keys);
    }

    /**
     * Writes these records (distinct keys) as the ingester writes them, retrying what the table leaves
     * undone until the deadline; the failures, by record (none when all were written).
     */
    public Map<Record, Failure> writeRecords(List<Record> written, Deadline deadline) {
        return records.write(written, deadline);
    }

    /**
     * The newest record of WHERE in these day buckets' keys (newest day first), read liberally: one the
     * Python datalake wrote (no create_time, no size) too, as the ingester's upkeep chooses it.
     */
    public Optional<StoredRecord> newest(String where, List<TimeIndexKey> days) {
        return records.newest(where, days);
    }

    /** Whether the configuration names a latest table. */
    public boolean keepsLatest() {
        return latest.isPresent();
    }

    /** The latest table's entry for a WHAT and WHERE; empty without one, or without a latest table. */
    public Optional<Record> latest(WhatWhereKey key) {
        return latest.flatMap(t -> t.current(key)).flatMap(LatestUpkeep::ours);
    }

    /**
     * Replaces the latest table's entry if it is still {@code expected}: by the replacement's item as stored
     * (a record of the Python datalake's format stays as it is), or removes it; false when it changed
     * meanwhile, or there is no latest table.
     */
    public boolean replaceLatest(Record expected, Optional<StoredRecord> replacement) {
        return latest.map(t -> t.replace(StoredRecord.ofLatest(expected), replacement))
                .orElse(false);
    }
}
