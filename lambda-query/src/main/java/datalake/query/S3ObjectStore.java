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
import software.amazon.awssdk.services.s3.model.InvalidObjectStateException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * {@link ObjectStore} on S3: {@code HeadObject} for the metadata, a ranged {@code GetObject} for the
 * metadata and the first bytes in one call, the SDK's presigner for links. A missing object is a 404
 * only when the function may {@code s3:ListBucket}; without it S3 answers 403, which is treated as the
 * fault it is. An archived object (S3 Glacier Flexible Retrieval or Deep Archive, an Intelligent-Tiering
 * archive tier) refuses {@code GetObject} with 403 {@code InvalidObjectState} until it is restored, but
 * answers {@code HeadObject} with its metadata and storage class.
 */
record S3ObjectStore(S3Client s3, S3Presigner presigner) implements ObjectStore {
    /** S3's answer to a range of an empty object. */
    private static final int RANGE_NOT_SATISFIABLE = 416;
    /** S3's error code for reading an archived object that is not restored. */
    private static final String INVALID_OBJECT_STATE = "InvalidObjectState";

    @Override
    public Optional<Map<String, String>> userMetadata(String bucket, String key) {
        return head(bucket, key).map(HeadObjectResponse::metadata);
    }

    private Optional<HeadObjectResponse> head(String bucket, String key) {
        try {
            return Optional.of(s3.headObject(r -> r.bucket(bucket).key(key)));
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
            if (e.awsErrorDetails() != null && INVALID_OBJECT_STATE.equals(e.awsErrorDetails().errorCode())) {
                return head(bucket, key).map(head -> new ObjectStart(head.metadata(), new byte[0],
                        Optional.of(archive(head, e))));
            }
            throw e;
        }
    }

    /** The storage class, and the archive tier of Intelligent-Tiering, that keep the object from being read. */
    private static String archive(HeadObjectResponse head, S3Exception refusal) {
        String storageClass = head.storageClassAsString();
        if (storageClass == null && refusal instanceof InvalidObjectStateException state) {
            storageClass = state.storageClassAsString();
        }
        String name = storageClass == null ? "an archive storage class" : storageClass;
        return head.archiveStatusAsString() == null ? name : name + " (" + head.archiveStatusAsString() + ")";
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
