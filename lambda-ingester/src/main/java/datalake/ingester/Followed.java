package datalake.ingester;

import datalake.dynamodb.ObjectEntry;

/**
 * What following one object did ({@link Ingester#follow}): the state HEAD found, and the index's
 * records written or removed for it.
 *
 * @param event    the object (its key as the bucket names it)
 * @param state    what HEAD found, or null when HEAD gave no answer (see {@code failure})
 * @param failure  why the object is not indexed as it is (a permanent reason: missing or invalid
 *                 metadata; a transient one: try again), or null
 * @param records  the records of its current state (one per day bucket), when indexed
 * @param removed  records of an earlier state deleted
 * @param unchanged indexed, and the index already held it so (its per-object item named this object,
 *                 metadata and records, with nothing stale): its records were written again, as they were
 */
public record Followed(ObjectEvent event, ObjectEntry.State state, Failure failure, int records, int removed,
        boolean unchanged) {
    /** Indexed as it is now. */
    public boolean indexed() {
        return state == ObjectEntry.State.INDEXED && failure == null;
    }

    /** Present in the bucket without the datalake user metadata: not a datalake file. */
    public boolean withoutMetadata() {
        return failure != null && failure.kind() == ErrorKind.MISSING_METADATA;
    }
}
