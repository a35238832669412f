package datalake.query;

import static datalake.query.Events.body;
import static datalake.query.Events.get;
import static datalake.query.TestFiles.T0;
import static datalake.query.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import datalake.lambda.JsonLog;
import datalake.records.DatalakeJson;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ArchiveStatus;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.InvalidObjectStateException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * The API over {@link S3ObjectStore} on an S3 client that answers as S3 does for an archived object:
 * {@code HeadObject} with its metadata and storage class, {@code GetObject} 403 {@code InvalidObjectState}.
 */
class S3ObjectStoreTest {
    private static final Map<String, String> DATALAKE_METADATA = Map.of("datalake",
            DatalakeJson.toJson(file("cold", "syslog", "web", T0, null)));

    private static APIGatewayV2HTTPResponse data(HeadObjectResponse head, S3Exception getRefusal) {
        S3Client s3 = new S3Client() {
            @Override
            public <T> T getObject(GetObjectRequest request, ResponseTransformer<GetObjectResponse, T> transformer) {
                throw getRefusal;
            }

            @Override
            public HeadObjectResponse headObject(HeadObjectRequest request) {
                return head;
            }

            @Override
            public String serviceName() {
                return "s3";
            }

            @Override
            public void close() {
            }
        };
        return QueryApi.builder().config(QueryConfig.of("records", "lake")).records(new InMemoryRecordsTable())
                .files(new S3ObjectStore(s3, null)).clock(Clock.systemUTC()).log(JsonLog.discarding(QueryApi.LOGGER))
                .build().handle(get("/v0/archive/files/cold/data", ""));
    }

    private static S3Exception refusal(String code, StorageClass storageClass) {
        AwsErrorDetails details = AwsErrorDetails.builder().errorCode(code).serviceName("S3")
                .errorMessage("The operation is not valid for the object's storage class").build();
        return code.equals("InvalidObjectState")
                ? InvalidObjectStateException.builder().statusCode(403).awsErrorDetails(details)
                        .storageClass(storageClass).build()
                : (S3Exception) S3Exception.builder().statusCode(403).awsErrorDetails(details).build();
    }

    @Test
    void anArchivedObjectIs409FileArchivedNamingWhereItIsArchived() {
        APIGatewayV2HTTPResponse glacier = data(HeadObjectResponse.builder().metadata(DATALAKE_METADATA)
                .storageClass(StorageClass.GLACIER).build(), refusal("InvalidObjectState", StorageClass.GLACIER));
        APIGatewayV2HTTPResponse tiered = data(HeadObjectResponse.builder().metadata(DATALAKE_METADATA)
                .storageClass(StorageClass.INTELLIGENT_TIERING).archiveStatus(ArchiveStatus.DEEP_ARCHIVE_ACCESS).build(),
                refusal("InvalidObjectState", null));

        assertEquals(409, glacier.getStatusCode(), glacier.getBody());
        assertEquals("FileArchived", body(glacier).path("code").asText());
        assertEquals("File cold is archived in GLACIER; restore it in S3 first, then ask again.",
                body(glacier).path("message").asText());
        assertEquals(409, tiered.getStatusCode(), tiered.getBody());
        assertEquals("File cold is archived in INTELLIGENT_TIERING (DEEP_ARCHIVE_ACCESS); restore it in S3 first, "
                + "then ask again.", body(tiered).path("message").asText());
    }

    @Test
    void anArchivedObjectWithoutDatalakeMetadataIsNoSuchFile() {
        APIGatewayV2HTTPResponse foreign = data(HeadObjectResponse.builder().metadata(Map.of())
                .storageClass(StorageClass.DEEP_ARCHIVE).build(), refusal("InvalidObjectState", StorageClass.DEEP_ARCHIVE));

        assertEquals(404, foreign.getStatusCode(), foreign.getBody());
        assertEquals("NoSuchFile", body(foreign).path("code").asText());
    }

    @Test
    void anotherRefusalOfS3StaysAFaultOfTheFunction() {
        APIGatewayV2HTTPResponse denied = data(HeadObjectResponse.builder().metadata(DATALAKE_METADATA).build(),
                refusal("AccessDenied", null));

        assertEquals(500, denied.getStatusCode(), denied.getBody());
        assertEquals("InternalError", body(denied).path("code").asText());
    }
}
