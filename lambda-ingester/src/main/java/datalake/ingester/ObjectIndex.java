package datalake.ingester;

import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.RecordKey;
import java.util.Collection;
import java.util.Map;

/**
 * The per-object items: what the index knows of each object of the bucket (docs/DESIGN.md, "The index
 * follows the bucket"). The AWS implementation is {@link DynamoObjectIndex}.
 */
interface ObjectIndex {
    /**
     * Records an observation of an object unless a later one ({@code observedAt}) is recorded already.
     * The keys of the entry it replaces join its stale keys in the same write, so that keys still to
     * delete are never forgotten, even if the caller stops right after; each once, and none of its own
     * records ({@link ObjectEntry#over}), however often the commit is made again.
     *
     * @return whether it was recorded, and the entry it replaced (null when there was none)
     */
    Commit commit(ObjectEntry entry);

    /** The outcome of {@link #commit}: rejected when a later observation is recorded. */
    record Commit(boolean accepted, ObjectEntry previous) {
        static final Commit REJECTED = new Commit(false, null);
    }

    /** The current entries of these URLs (strongly consistent); a URL without one is not in the map. */
    Map<String, ObjectEntry> read(Collection<String> urls);

    /**
     * Deletes the records at these keys that still belong to {@code url} (a record that another object
     * holds now stays). Throws what the table throws.
     *
     * @return how many were deleted
     */
    int removeRecords(String url, Collection<RecordKey> keys);

    /**
     * Forgets the stale keys and the replaced file of the entry of {@code url}, if it is still the commit
     * {@code commitId}: its handler has deleted the keys and dealt with the file. The entry gets a new
     * commit id in the same write, so that a commit that read it before (a duplicate delivery beside this
     * handler) is refused and reads it again, rather than writing what was forgotten back.
     */
    void clearStale(String url, String commitId);
}
