package datalake.ingester;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.records.InvalidMetadataException;
import datalake.records.UnsupportedTimeRangeException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

class FailuresTest {
    private static final String URL = "s3://datalake-example/a.csv";

    @Test
    void notificationProblemsKeepTheirKind() {
        Failure failure = Failures.classify(new NotificationException(ErrorKind.UNSUPPORTED_S3_EVENT, "no."), null);

        assertEquals(new Failure(ErrorKind.UNSUPPORTED_S3_EVENT, "no."), failure);
    }

    @Test
    void metadataProblemsArePermanentAndNameTheObject() {
        Failure missing = Failures.classify(new MissingMetadataException(URL), URL);
        Failure invalid = Failures.classify(new InvalidMetadataException("what", "metadata field 'what' is bad."), URL);
        Failure span = Failures.classify(new UnsupportedTimeRangeException(31, 30), URL);

        assertEquals(ErrorKind.MISSING_METADATA, missing.kind());
        assertEquals(ErrorKind.INVALID_METADATA, invalid.kind());
        assertEquals(URL + ": metadata field 'what' is bad.", invalid.message());
        assertEquals(ErrorKind.UNSUPPORTED_TIME_RANGE, span.kind());
        assertTrue(span.message().startsWith(URL + ": "), span.message());
        assertTrue(missing.permanent() && invalid.permanent() && span.permanent());
    }

    @Test
    void aMissingObjectOrBucketIsPermanent() {
        // HeadObject's 404 has no body: the SDK knows only the status
        S3Exception bareNotFound = (S3Exception) S3Exception.builder().statusCode(404).build();
        NoSuchKeyException noSuchKey = NoSuchKeyException.builder().statusCode(404).build();
        S3Exception noSuchBucket = (S3Exception) S3Exception.builder().statusCode(404)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("NoSuchBucket").serviceName("S3").build()).build();

        assertEquals(ErrorKind.NO_SUCH_KEY, Failures.classify(bareNotFound, URL).kind());
        assertEquals(ErrorKind.NO_SUCH_KEY, Failures.classify(noSuchKey, URL).kind());
        assertEquals(ErrorKind.NO_SUCH_BUCKET, Failures.classify(noSuchBucket, URL).kind());
        assertEquals(ErrorKind.NO_SUCH_BUCKET, Failures.classify(NoSuchBucketException.builder().statusCode(404).build(), URL).kind());
        assertTrue(ErrorKind.NO_SUCH_KEY.permanent() && ErrorKind.NO_SUCH_BUCKET.permanent());
    }

    @ParameterizedTest
    @CsvSource({
        "DynamoDB, 400, ProvisionedThroughputExceededException, THROTTLING",
        "DynamoDB, 400, ThrottlingException, THROTTLING",
        "DynamoDB, 400, RequestLimitExceeded, THROTTLING",
        "S3, 503, SlowDown, THROTTLING",
        "SNS, 429, TooManyRequests, THROTTLING",
        "DynamoDB, 500, InternalServerError, SERVICE_ERROR",
        "S3, 503, ServiceUnavailable, SERVICE_ERROR",
        "SQS, 502, BadGateway, SERVICE_ERROR",
        "S3, 403, AccessDenied, AWS_ERROR",
        "DynamoDB, 400, ResourceNotFoundException, AWS_ERROR",
        "DynamoDB, 400, ValidationException, AWS_ERROR",
        "SNS, 404, NotFound, AWS_ERROR",
    })
    void serviceErrorsAreTransient(String service, int status, String code, ErrorKind kind) {
        AwsServiceException e = AwsServiceException.builder().statusCode(status)
                .awsErrorDetails(AwsErrorDetails.builder().serviceName(service).errorCode(code).errorMessage("detail").build())
                .build();

        Failure failure = Failures.classify(e, null);

        assertEquals(kind, failure.kind(), failure.message());
        assertFalse(failure.permanent());
        assertTrue(failure.message().contains(service + " answered " + status), failure.message());
    }

    @Test
    void modeledDynamoDbExceptionsAreClassifiedByType() {
        assertEquals(ErrorKind.THROTTLING, Failures.classify(
                ProvisionedThroughputExceededException.builder().statusCode(400).build(), null).kind());
        assertEquals(ErrorKind.AWS_ERROR, Failures.classify(
                ResourceNotFoundException.builder().statusCode(400).build(), null).kind());
        assertEquals(ErrorKind.SERVICE_ERROR, Failures.classify(
                DynamoDbException.builder().statusCode(500).build(), null).kind());
    }

    @Test
    void clientSideFailuresAreNetworkErrors() {
        assertEquals(ErrorKind.NETWORK, Failures.classify(SdkClientException.create("Unable to execute HTTP request",
                new SocketTimeoutException("Read timed out")), null).kind());
        assertEquals(ErrorKind.NETWORK, Failures.classify(ApiCallTimeoutException.create(25_000), null).kind());
        assertEquals(ErrorKind.NETWORK, Failures.classify(new IOException("Connection refused"), null).kind());
    }

    @Test
    void wrappersFromExecutorsAreLookedThrough() {
        NoSuchKeyException cause = NoSuchKeyException.builder().statusCode(404).build();

        assertEquals(ErrorKind.NO_SUCH_KEY, Failures.classify(new ExecutionException(cause), URL).kind());
        assertEquals(ErrorKind.NO_SUCH_KEY, Failures.classify(new CompletionException(cause), URL).kind());
    }

    @Test
    void anythingElseIsAnUnexpectedTransientFailure() {
        Failure failure = Failures.classify(new NullPointerException("boom"), URL);

        assertEquals(ErrorKind.UNEXPECTED, failure.kind());
        assertFalse(failure.permanent());
        assertEquals(URL + ": unexpected NullPointerException: boom", failure.message());
    }

    @Test
    void longExceptionTextIsShortenedToOneLine() {
        String shortened = Failures.shorten("a\n\tb " + "x".repeat(1000));

        assertTrue(shortened.startsWith("a b x"));
        assertTrue(shortened.length() < 310);
    }
}
