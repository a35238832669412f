package datalake.query;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The storage bucket as the query reads it: an object's user metadata, and time-limited download
 * links. The AWS implementation is {@link S3ObjectStore}.
 */
public interface ObjectStore {

    /** The object's user metadata (keys without {@code x-amz-meta-}), or empty when there is no such object. */
    Optional<Map<String, String>> userMetadata(String bucket, String key);

    /** A URL that lets anyone GET the object for {@code validity}. */
    URI presignedGet(String bucket, String key, Duration validity);
}
