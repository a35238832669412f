package datalake.ingester;

/** Reads the facts of a stored object without its content. */
public interface ObjectStore {
    /** The user metadata key that holds the datalake metadata (header {@code x-amz-meta-datalake}). */
    String METADATA_KEY = "datalake";

    /**
     * The object's metadata, LastModified and size; throws what the store throws (the classifier
     * tells a missing object from a failing store, which is transient).
     */
    StoredObject head(String bucket, String key);

    /**
     * Whether the bucket exists: HeadObject's 404 has no body, so a missing object and a missing bucket
     * look alike, and only the second is an error. Throws what the store throws.
     */
    boolean bucketExists(String bucket);
}
