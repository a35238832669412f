package datalake.ingester;

import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProviderChain;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The SDK clients of the deployed function, built once at init: the URL-connection HTTP client
 * (small, starts fast; no Netty or Apache), the region from AWS_REGION, credentials from the
 * environment first (what Lambda sets), and endpoints from the SDK's own AWS_ENDPOINT_URL* support.
 * Timeouts are short so that a hung call fails (transient) well inside the invocation's time.
 */
record SdkClients(S3Client s3, DynamoDbClient dynamoDb, SnsClient sns, SqsClient sqs) {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(25);

    static SdkClients create(IngesterConfig config) {
        // One HTTP client for all four: it is thread-safe and keeps one connection pool.
        SdkHttpClient http = UrlConnectionHttpClient.builder()
                .connectionTimeout(CONNECT_TIMEOUT)
                .socketTimeout(SOCKET_TIMEOUT)
                .build();
        Region region = Region.of(config.region());
        AwsCredentialsProvider credentials = AwsCredentialsProviderChain.builder()
                .credentialsProviders(EnvironmentVariableCredentialsProvider.create(),
                        DefaultCredentialsProvider.builder().build())
                .reuseLastProviderEnabled(true)
                .build();
        ClientOverrideConfiguration override = ClientOverrideConfiguration.builder()
                .apiCallAttemptTimeout(ATTEMPT_TIMEOUT)
                .apiCallTimeout(CALL_TIMEOUT)
                .build();
        return new SdkClients(
                S3Client.builder().httpClient(http).region(region).credentialsProvider(credentials)
                        .overrideConfiguration(override).forcePathStyle(config.s3PathStyle()).build(),
                DynamoDbClient.builder().httpClient(http).region(region).credentialsProvider(credentials)
                        .overrideConfiguration(override).build(),
                SnsClient.builder().httpClient(http).region(region).credentialsProvider(credentials)
                        .overrideConfiguration(override).build(),
                SqsClient.builder().httpClient(http).region(region).credentialsProvider(credentials)
                        .overrideConfiguration(override).build());
    }
}
