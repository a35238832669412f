package datalake.query;

import datalake.lambda.LambdaCredentials;
import datalake.lambda.LambdaHttpClient;
import java.time.Duration;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The SDK clients of the query function, built once from its configuration: one HTTP client shared by
 * DynamoDB and S3 ({@link LambdaHttpClient}: a connection kept for each concurrent bucket read), the
 * region from the configuration, credentials from the one source the environment names.
 */
final class SdkClients {
    /** The day buckets read at once, and the request's own calls (latest, S3). */
    private static final int CONCURRENT_CALLS = QueryApi.READ_THREADS + 4;
    /** Short enough that a hung call ends well inside API Gateway's 30 seconds. */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(10);

    private SdkClients() {
    }

    /** The deployed function's clients: DynamoDB, S3 and the presigner. */
    record Clients(DynamoDbClient dynamoDb, S3Client s3, S3Presigner presigner) {
    }

    static Clients create(QueryConfig config, Map<String, String> env) {
        SdkHttpClient http = httpClient();
        AwsCredentialsProvider credentials = LambdaCredentials.of(env);
        return new Clients(dynamoDb(config, http, credentials), s3(config, http, credentials),
                presigner(config, credentials));
    }

    /** The function's HTTP client (also what the query benchmark measures through). */
    static SdkHttpClient httpClient() {
        return LambdaHttpClient.create(CONCURRENT_CALLS, CONNECT_TIMEOUT, SOCKET_TIMEOUT);
    }

    static DynamoDbClient dynamoDb(QueryConfig config, SdkHttpClient http, AwsCredentialsProvider credentials) {
        DynamoDbClientBuilder builder = DynamoDbClient.builder().httpClient(http).credentialsProvider(credentials);
        if (config.region() != null) {
            builder.region(Region.of(config.region()));
        }
        if (config.dynamoDbEndpoint() != null) {
            builder.endpointOverride(config.dynamoDbEndpoint());
        }
        return builder.build();
    }

    static S3Client s3(QueryConfig config, SdkHttpClient http, AwsCredentialsProvider credentials) {
        S3ClientBuilder builder = S3Client.builder()
                .httpClient(http)
                .credentialsProvider(credentials)
                .forcePathStyle(config.s3PathStyle());
        if (config.region() != null) {
            builder.region(Region.of(config.region()));
        }
        if (config.s3Endpoint() != null) {
            builder.endpointOverride(config.s3Endpoint());
        }
        return builder.build();
    }

    static S3Presigner presigner(QueryConfig config, AwsCredentialsProvider credentials) {
        S3Presigner.Builder builder = S3Presigner.builder()
                .credentialsProvider(credentials)
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(config.s3PathStyle()).build());
        if (config.region() != null) {
            builder.region(Region.of(config.region()));
        }
        if (config.s3Endpoint() != null) {
            builder.endpointOverride(config.s3Endpoint());
        }
        return builder.build();
    }
}
