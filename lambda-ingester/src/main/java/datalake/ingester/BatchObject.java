package datalake.ingester;

import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.RecordKey;
import datalake.records.Metadata;
import datalake.records.Record;
import datalake.records.StatusReport;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One distinct object (bucket and key) of the batch, shared by every message that names it, and what
 * following it did: the bucket's state as HEAD found it, the per-object entry committed for it, the
 * records written and removed.
 */
final class BatchObject {
    /** Earlier objects first: LastModified, then the order of their owning events. */
    static final Comparator<BatchObject> LATER_LAST = Comparator
            .comparingLong((BatchObject o) -> o.records.get(0).createTime())
            .thenComparingInt(o -> o.order);

    volatile ObjectEvent event;
    int order;
    BatchMessage owner;
    /** When HEAD began, microseconds since the epoch: orders observations of one key. */
    volatile long observedAt;
    /** The state HEAD found, or null until then (and when HEAD failed). */
    volatile ObjectEntry.State state;
    volatile Metadata metadata;
    /** The records of an indexed state. */
    volatile List<Record> records;
    /** The entry committed for this observation. */
    volatile ObjectEntry entry;
    volatile ObjectIndex.Commit commit;
    /** The later entry that replaced ours before our writes were checked, if any. */
    volatile ObjectEntry superseded;
    /** Keys this handler wrote or deleted, which it must align if a later commit superseded it. */
    final Set<RecordKey> touched = ConcurrentHashMap.newKeySet();
    volatile Boolean latestTaken;
    volatile Failure failure;
    volatile long finishedAt;
    int written;
    volatile int removed;

    BatchObject() {
    }

    BatchObject(ObjectEvent event) {
        this.event = event;
    }

    /**
     * Keeps the first failure (the cause; later ones are consequences), except that a transient one
     * replaces a permanent one: the object must then come again.
     */
    synchronized void fail(Failure f) {
        if (failure == null || (failure.permanent() && !f.permanent())) {
            failure = f;
        }
    }

    /** Whether this observation's entry is the index's (it was accepted, and may have been superseded since). */
    boolean committed() {
        return commit != null && commit.accepted();
    }

    /** Indexed and stored: the records of this observation belong in the table. */
    boolean indexed() {
        return state == ObjectEntry.State.INDEXED && records != null && committed() && failure == null;
    }

    /** The entry this observation's commit replaced, or null. */
    ObjectEntry previous() {
        return commit == null ? null : commit.previous();
    }

    /** The file this observation removed from the index: the previous entry's, when it was indexed. */
    StatusReport.FileRecord removedFile() {
        ObjectEntry previous = previous();
        if (state == ObjectEntry.State.INDEXED || previous == null || !previous.indexed()) {
            return null;
        }
        return new StatusReport.FileRecord(previous.url(), previous.size(), previous.createTime(), previous.metadata());
    }
}
