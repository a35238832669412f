package datalake.ingester;

import java.util.Optional;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** {@link ObjectStore} on S3: one HeadObject per object (never GetObject: the content is not needed). */
record S3ObjectStore(S3Client s3) implements ObjectStore {
    @Override
    public Optional<StoredObject> head(String bucket, String key) {
        HeadObjectResponse head;
        try {
            head = s3.headObject(r -> r.bucket(bucket).key(key));
        } catch (S3Exception e) {
            if (Failures.classify(e, null).kind() == ErrorKind.NO_SUCH_KEY) {
                return Optional.empty();
            }
            throw e;
        }
        // The SDK hands user metadata back without the x-amz-meta- prefix, keys lower-cased.
        String metadata = userMetadata(head, METADATA_KEY);
        long lastModified = head.lastModified() == null ? 0L : head.lastModified().toEpochMilli();
        long size = head.contentLength() == null ? 0L : head.contentLength();
        String etag = head.eTag() == null ? null : head.eTag().replace("\"", "");
        String version = head.versionId() == null || "null".equals(head.versionId()) ? null : head.versionId();
        return Optional.of(new StoredObject(metadata, lastModified, size, etag, version));
    }

    @Override
    public boolean bucketExists(String bucket) {
        try {
            s3.headBucket(r -> r.bucket(bucket));
            return true;
        } catch (NoSuchBucketException e) {
            return false;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return false;
            }
            throw e;
        }
    }

    /** S3 lower-cases user metadata names; some emulators keep the sender's case. */
    private static String userMetadata(HeadObjectResponse head, String name) {
        String value = head.metadata().get(name);
        if (value != null) {
            return value;
        }
        for (var entry : head.metadata().entrySet()) {
            if (entry.getKey().equalsIgnoreCase(name)) {
                return entry.getValue();
            }
        }
        return null;
    }
}
