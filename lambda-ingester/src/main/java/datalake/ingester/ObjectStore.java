package datalake.ingester;

import java.util.Optional;

/**
 * The data-lake bucket as the ingester reads it: the facts of an object, never its content. The AWS
 * implementation is {@link S3ObjectStore}.
 */
interface ObjectStore {
    /** The user metadata key that holds the datalake metadata (header {@code x-amz-meta-datalake}). */
    String METADATA_KEY = "datalake";

    /**
     * The object's metadata, LastModified and size; empty when there is no such object (or no such
     * bucket: HeadObject answers both alike). Throws what the store throws otherwise (the classifier
     * tells a failing store, which is transient).
     */
    Optional<StoredObject> head(String bucket, String key);

    /**
     * Whether the bucket exists: HeadObject's 404 has no body, so a missing object and a missing bucket
     * look alike, and only the second is an error. Throws what the store throws.
     */
    boolean bucketExists(String bucket);
}
