package datalake.emulators;

import datalake.lambda.SdkClientFactory;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Somewhere the AWS APIs answer without an AWS account: the {@link Emulators} (moto and dynalite,
 * no Docker), or LocalStack in Docker (the ingester's LocalStack suite). What a test or the
 * local runner needs of them: clients, factories for clients with settings of their own, and the
 * SDK's endpoint settings for code that builds its own clients.
 */
public interface AwsEndpoints {
    /** For messages: "moto + dynalite", "LocalStack". */
    String name();

    S3Client s3();

    SqsClient sqs();

    SnsClient sns();

    DynamoDbClient dynamoDb();

    /** A new EventBridge client (the caller closes it): only the stack's rules need one, once. */
    default EventBridgeClient eventBridge() {
        return s3Clients().build(EventBridgeClient.builder());
    }

    /** Builds DynamoDB clients of one's own (a fault-injecting interceptor, fewer retries). */
    SdkClientFactory dynamoDbClients();

    /** Builds S3, SQS and SNS clients of one's own (S3 ones need {@code forcePathStyle(true)}). */
    SdkClientFactory s3Clients();

    /**
     * AWS_ENDPOINT_URL_DYNAMODB, _S3, _SQS and _SNS, AWS_REGION and dummy credentials: the settings with
     * which a handler's own {@link SdkClientFactory#forFunction} reaches these endpoints.
     */
    Map<String, String> endpointEnvironment();

    /** The AWS::AccountId of the ARNs these endpoints answer with (moto's 123456789012, LocalStack's 000000000000). */
    default String accountId() {
        return "123456789012";
    }

    /** The region of every client and ARN. */
    default String region() {
        return Emulators.REGION.id();
    }

    /**
     * The same endpoints, with clients signing with other credentials: a stack's principals (a function's
     * role) each sign with keys of their own, so that their calls can be told apart and recorded.
     */
    default AwsEndpoints withCredentials(AwsCredentialsProvider credentials) {
        return new CredentialedEndpoints(this, credentials);
    }
}
