package datalake.ingester;

import datalake.dynamodb.ObjectEntry;
import datalake.records.Metadata;
import datalake.records.Record;
import java.util.List;

/**
 * What HEAD found of one object, and the per-object entry that records it: the first step of following
 * an object ({@link ObjectSync}).
 *
 * @param event      the event as followed: the batch's, or the same about its alternate key when the object
 *                   is under that one
 * @param observedAt when HEAD began, microseconds since the epoch: orders the observations of one key
 * @param state      what HEAD found; null when the object could not be judged (a transient failure)
 * @param metadata   the object's datalake metadata when it is valid, else null
 * @param records    the records of an indexed object, one per day bucket, else null
 * @param entry      the per-object entry of this observation; null without a state
 */
record Observation(ObjectEvent event, long observedAt, ObjectEntry.State state, Metadata metadata,
        List<Record> records, ObjectEntry entry) {

    /** A datalake file, its records built. */
    boolean indexed() {
        return state == ObjectEntry.State.INDEXED;
    }

    /** The record of its first day bucket: the file as reports and the latest table show it. */
    Record file() {
        return records.get(0);
    }
}
