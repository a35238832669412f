package datalake.query;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * {@link ObjectStore} on S3: {@code HeadObject} for the metadata, the SDK's presigner for links.
 * A missing object is a 404 from HEAD only when the function may {@code s3:ListBucket}; without it
 * S3 answers 403, which is treated as the fault it is.
 */
public record S3ObjectStore(S3Client s3, S3Presigner presigner) implements ObjectStore {
    @Override
    public Optional<Map<String, String>> userMetadata(String bucket, String key) {
        try {
            HeadObjectResponse head = s3.headObject(r -> r.bucket(bucket).key(key));
            return Optional.of(head.metadata());
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public URI presignedGet(String bucket, String key, Duration validity) {
        try {
            return presigner.presignGetObject(r -> r.signatureDuration(validity)
                    .getObjectRequest(g -> g.bucket(bucket).key(key))).url().toURI();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException("the presigner made an invalid URL", e);
        }
    }
}
