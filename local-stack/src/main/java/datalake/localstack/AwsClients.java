package datalake.localstack;

import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.SnsClientBuilder;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.SqsClientBuilder;

/**
 * SDK v2 clients for an emulator endpoint: endpoint override, region us-east-1, static dummy
 * credentials, the URL-connection HTTP client, and path-style S3 (moto serves buckets on paths).
 * The {@code …Builder} methods return the builder so a test can add its own settings (for example an
 * {@code ExecutionInterceptor} that injects faults) before {@code build()}.
 */
public final class AwsClients {
    /** The region every local client and ARN uses. */
    public static final Region REGION = Region.US_EAST_1;

    /** Dummy credentials; DynamoDB Local accepts only letters and digits in the key id. */
    public static final String ACCESS_KEY_ID = "datalakelocal";

    public static final String SECRET_ACCESS_KEY = "datalakelocal";

    /** Emulators accept any credentials, but the SDK refuses to sign without some. */
    private static final StaticCredentialsProvider CREDENTIALS =
            StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY_ID, SECRET_ACCESS_KEY));

    private AwsClients() {}

    public static DynamoDbClientBuilder dynamoDbBuilder(URI endpoint) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(REGION)
                .credentialsProvider(CREDENTIALS)
                .httpClientBuilder(UrlConnectionHttpClient.builder());
    }

    public static S3ClientBuilder s3Builder(URI endpoint) {
        return S3Client.builder()
                .endpointOverride(endpoint)
                .region(REGION)
                .credentialsProvider(CREDENTIALS)
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .forcePathStyle(true);
    }

    public static SqsClientBuilder sqsBuilder(URI endpoint) {
        return SqsClient.builder()
                .endpointOverride(endpoint)
                .region(REGION)
                .credentialsProvider(CREDENTIALS)
                .httpClientBuilder(UrlConnectionHttpClient.builder());
    }

    public static SnsClientBuilder snsBuilder(URI endpoint) {
        return SnsClient.builder()
                .endpointOverride(endpoint)
                .region(REGION)
                .credentialsProvider(CREDENTIALS)
                .httpClientBuilder(UrlConnectionHttpClient.builder());
    }

    public static DynamoDbClient dynamoDb(URI endpoint) {
        return dynamoDbBuilder(endpoint).build();
    }

    public static S3Client s3(URI endpoint) {
        return s3Builder(endpoint).build();
    }

    public static SqsClient sqs(URI endpoint) {
        return sqsBuilder(endpoint).build();
    }

    public static SnsClient sns(URI endpoint) {
        return snsBuilder(endpoint).build();
    }
}
