package datalake.query;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The storage bucket as the query reads it: an object's user metadata and first bytes, and
 * time-limited download links. The AWS implementation is {@link S3ObjectStore}.
 */
interface ObjectStore {

    /** The object's user metadata (keys without {@code x-amz-meta-}), or empty when there is no such object. */
    Optional<Map<String, String>> userMetadata(String bucket, String key);

    /**
     * The object's user metadata and its first {@code length} bytes (all of them when it is shorter), or
     * empty when there is no such object. An archived object answers its metadata, no bytes, and where
     * it is archived.
     */
    Optional<ObjectStart> start(String bucket, String key, int length);

    /**
     * A URL that lets anyone GET the object for {@code validity}, answered with the given
     * {@code Content-Type} and {@code Content-Encoding} (null: as stored).
     */
    URI presignedGet(String bucket, String key, Duration validity, ContentHeaders headers);

    /**
     * The user metadata and the first bytes of an object.
     *
     * @param archive where the object is archived, so that it cannot be read until it is restored (its
     *                storage class, and the Intelligent-Tiering archive tier), or empty when it can be read
     */
    @SuppressWarnings("ArrayRecordComponent") // a few bytes read once to sniff the encoding; never compared
    record ObjectStart(Map<String, String> userMetadata, byte[] bytes, Optional<String> archive) {
        ObjectStart(Map<String, String> userMetadata, byte[] bytes) {
            this(userMetadata, bytes, Optional.empty());
        }
    }
}
