package datalake.ingester;

import datalake.lambda.JsonLog;
import datalake.records.InvalidMetadataException;
import datalake.records.UnsupportedTimeRangeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The failure classifier of the failure policy: which errors no redelivery can fix (permanent) and
 * which may pass (transient). Anything not known to be permanent is transient: SQS retries it and
 * the queue's redrive policy moves it to the DLQ after maxReceiveCount, so nothing loops forever,
 * and configuration errors (access denied, a missing table) heal with the next deploy.
 */
final class Failures {
    /** Throttling error codes that the SDK's own check does not know for every service. */
    private static final Set<String> THROTTLING_CODES = Set.of("ProvisionedThroughputExceededException",
            "ThrottlingException", "Throttling", "ThrottledException", "RequestLimitExceeded", "SlowDown",
            "TooManyRequestsException", "RequestThrottled", "RequestThrottledException",
            "RequestLimitExceededException");

    private Failures() {
    }

    /** The failure an exception stands for; {@code url} names the object concerned, or is null. */
    static Failure classify(Throwable error, String url) {
        Throwable e = unwrap(error);
        String about = url == null ? "" : url + ": ";
        if (e instanceof NotificationException n) {
            return new Failure(n.kind(), n.getMessage());
        }
        if (e instanceof OutOfTimeException || e.getCause() instanceof OutOfTimeException) {
            return new Failure(ErrorKind.TIME_BUDGET, about + (e instanceof OutOfTimeException ? e : e.getCause())
                    .getMessage());
        }
        if (e instanceof ContentionException) {
            return new Failure(ErrorKind.CONTENTION, e.getMessage());
        }
        if (e instanceof MissingMetadataException) {
            return new Failure(ErrorKind.MISSING_METADATA, e.getMessage());
        }
        if (e instanceof UnsupportedTimeRangeException) {
            return new Failure(ErrorKind.UNSUPPORTED_TIME_RANGE, about + e.getMessage() + ".");
        }
        if (e instanceof InvalidMetadataException) {
            return new Failure(ErrorKind.INVALID_METADATA, about + e.getMessage());
        }
        if (e instanceof SdkServiceException service) {
            return serviceFailure(service, about);
        }
        if (e instanceof SdkClientException || e instanceof IOException || e instanceof UncheckedIOException) {
            return new Failure(ErrorKind.NETWORK, about + "no answer from the service: " + shorten(e.getMessage()));
        }
        return new Failure(ErrorKind.UNEXPECTED, about + "unexpected " + e.getClass().getSimpleName() + ": "
                + shorten(e.getMessage()));
    }

    /**
     * An object step that would start after the invocation's time budget: it does not start, so the batch
     * settles in the margin the handler keeps, and the object comes again ({@link ErrorKind#TIME_BUDGET}).
     */
    static Failure outOfTime(String url, String before) {
        return new Failure(ErrorKind.TIME_BUDGET, url + ": the invocation's time budget ran out before " + before + ".");
    }

    /**
     * DynamoDB's refusal of an item for its size (an item over 400 KB, a key over its limit): no
     * redelivery can change it. Other ValidationExceptions may be the table's fault (a wrong key
     * schema), and are not known to be permanent.
     */
    static boolean itemTooLarge(Throwable error) {
        Throwable e = unwrap(error);
        if (!(e instanceof AwsServiceException aws) || aws.statusCode() != 400 || aws.awsErrorDetails() == null
                || !"ValidationException".equals(aws.awsErrorDetails().errorCode())) {
            return false;
        }
        String message = aws.awsErrorDetails().errorMessage();
        return message != null && message.toLowerCase(java.util.Locale.ROOT).contains("size");
    }

    private static Failure serviceFailure(SdkServiceException e, String about) {
        String code = errorCode(e);
        if (itemTooLarge(e)) {
            return new Failure(ErrorKind.ITEM_REJECTED, about + "DynamoDB rejected the item: "
                    + shorten(serviceMessage(e)) + (serviceMessage(e).endsWith(".") ? "" : "."));
        }
        String answer = serviceName(e) + " answered " + e.statusCode() + (code == null ? "" : " " + code);
        if (e.isThrottlingException() || (code != null && THROTTLING_CODES.contains(code))
                || THROTTLING_CODES.contains(e.getClass().getSimpleName())) {
            return new Failure(ErrorKind.THROTTLING, about + answer + "; it is throttling requests.");
        }
        if (e instanceof NoSuchBucketException || "NoSuchBucket".equals(code)) {
            return new Failure(ErrorKind.NO_SUCH_BUCKET, about + "the bucket does not exist.");
        }
        // HeadObject answers a bare 404 (no body, so no error code) for a missing key.
        if (e instanceof NoSuchKeyException || (e instanceof S3Exception && e.statusCode() == 404)) {
            return new Failure(ErrorKind.NO_SUCH_KEY,
                    about + "the object does not exist (deleted since the event, or its bucket is gone).");
        }
        if (e.statusCode() >= 500) {
            return new Failure(ErrorKind.SERVICE_ERROR, about + answer + ".");
        }
        return new Failure(ErrorKind.AWS_ERROR, about + answer + ": " + shorten(serviceMessage(e)));
    }

    private static Throwable unwrap(Throwable error) {
        Throwable e = error;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    private static String errorCode(SdkServiceException e) {
        if (e instanceof AwsServiceException aws) {
            AwsErrorDetails details = aws.awsErrorDetails();
            if (details != null && details.errorCode() != null && !details.errorCode().isBlank()) {
                return details.errorCode();
            }
        }
        return null;
    }

    private static String serviceName(SdkServiceException e) {
        if (e instanceof AwsServiceException aws && aws.awsErrorDetails() != null
                && aws.awsErrorDetails().serviceName() != null) {
            return aws.awsErrorDetails().serviceName();
        }
        return "the service";
    }

    private static String serviceMessage(SdkServiceException e) {
        if (e instanceof AwsServiceException aws && aws.awsErrorDetails() != null
                && aws.awsErrorDetails().errorMessage() != null) {
            return aws.awsErrorDetails().errorMessage();
        }
        return e.getMessage();
    }

    /** At most a few hundred characters of an exception's text, on one line. */
    static String shorten(String text) {
        return JsonLog.shorten(text);
    }
}
