package datalake.ingester;

import datalake.lambda.LambdaCredentials;
import datalake.lambda.LambdaHttpClient;
import java.time.Duration;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The SDK clients of the deployed function, built once at init: the URL-connection HTTP client
 * (small, starts fast; no Netty or Apache; docs/PERFORMANCE.md has the comparison), the region from
 * AWS_REGION, credentials from the one source the environment names, and endpoints from the SDK's own
 * AWS_ENDPOINT_URL* support. Timeouts are short so that a hung call fails (transient) well inside the
 * invocation's time.
 */
record SdkClients(S3Client s3, DynamoDbClient dynamoDb, SnsClient sns, SqsClient sqs) implements AutoCloseable {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(25);

    static SdkClients create(IngesterConfig config) {
        return create(config, System.getenv());
    }

    static SdkClients create(IngesterConfig config, Map<String, String> env) {
        // One HTTP client for all four: it is thread-safe, and keeps a connection per concurrent HEAD.
        SdkHttpClient http = LambdaHttpClient.create(Ingester.DEFAULT_CONCURRENCY, CONNECT_TIMEOUT, SOCKET_TIMEOUT);
        return build(config, http, LambdaCredentials.of(env));
    }

    /**
     * Clients like the deployed ones on an HTTP client that answers without the network, and dummy
     * credentials (resolving the real ones could be a call): for {@link Priming}.
     */
    static SdkClients priming(IngesterConfig config, SdkHttpClient http) {
        return build(config, http, LambdaCredentials.PRIMING);
    }

    private static SdkClients build(IngesterConfig config, SdkHttpClient http, AwsCredentialsProvider credentials) {
        Region region = Region.of(config.region());
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

    @Override
    public void close() {
        s3.close();
        dynamoDb.close();
        sns.close();
        sqs.close();
    }
}
