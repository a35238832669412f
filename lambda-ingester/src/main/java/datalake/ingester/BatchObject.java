package datalake.ingester;

import datalake.records.Metadata;
import datalake.records.Record;
import java.util.Comparator;
import java.util.List;

/** One distinct object (bucket and key) of the batch, shared by every message that names it. */
final class BatchObject {
    /** Earlier objects first: LastModified, then the order of their owning events. */
    static final Comparator<BatchObject> LATER_LAST = Comparator
            .comparingLong((BatchObject o) -> o.records.get(0).createTime())
            .thenComparingInt(o -> o.order);

    ObjectEvent event;
    int order;
    BatchMessage owner;
    volatile Metadata metadata;
    volatile List<Record> records;
    volatile Failure failure;
    int written;

    /** Keeps the first failure: it is the cause, later ones are consequences. */
    synchronized void fail(Failure f) {
        if (failure == null) {
            failure = f;
        }
    }
}
