package datalake.query;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * {@link ObjectStore} on S3: {@code HeadObject} for the metadata, a ranged {@code GetObject} for the
 * metadata and the first bytes in one call, the SDK's presigner for links. A missing object is a 404
 * only when the function may {@code s3:ListBucket}; without it S3 answers 403, which is treated as the
 * fault it is.
 */
record S3ObjectStore(S3Client s3, S3Presigner presigner) implements ObjectStore {
    /** S3's answer to a range of an empty object. */
    private static final int RANGE_NOT_SATISFIABLE = 416;

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
    public Optional<ObjectStart> start(String bucket, String key, int length) {
        try {
            ResponseBytes<GetObjectResponse> bytes = s3.getObject(r -> r.bucket(bucket).key(key)
                    .range("bytes=0-" + (length - 1)), ResponseTransformer.toBytes());
            return Optional.of(new ObjectStart(bytes.response().metadata(), bytes.asByteArray()));
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return Optional.empty();
            }
            if (e.statusCode() == RANGE_NOT_SATISFIABLE) {
                return userMetadata(bucket, key).map(metadata -> new ObjectStart(metadata, new byte[0]));
            }
            throw e;
        }
    }

    @Override
    public URI presignedGet(String bucket, String key, Duration validity, ContentHeaders headers) {
        try {
            return presigner.presignGetObject(r -> r.signatureDuration(validity)
                    .getObjectRequest(g -> g.bucket(bucket).key(key)
                            .responseContentType(headers.type())
                            .responseContentEncoding(headers.encoding()))).url().toURI();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("the presigner made an invalid URL", e);
        }
    }
}
