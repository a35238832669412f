package datalake.query;

import datalake.lambda.SdkClientFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The query function's SDK clients: DynamoDB for the tables, S3 for HEADs, and the presigner of the
 * {@code /data} links. Built once at init.
 */
public record QueryClients(DynamoDbClient dynamoDb, S3Client s3, S3Presigner presigner) implements AutoCloseable {
    /** The day buckets and the shards of sharded days read at once, and the request's own calls (latest, S3). */
    static final int CONCURRENT_CALLS = 2 * QueryApi.READ_THREADS + 4;

    /**
     * The clients from one factory. The presigner is not an SDK client (it signs locally, without a
     * call), so it takes the factory's region and credentials here; it reads the SDK's endpoint
     * settings ({@code AWS_ENDPOINT_URL_S3}) itself, as the clients do.
     */
    public static QueryClients from(SdkClientFactory factory, QueryConfig config) {
        S3Presigner.Builder presigner = S3Presigner.builder()
                .region(factory.region())
                .credentialsProvider(factory.credentials())
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(config.s3PathStyle()).build());
        factory.endpoint().ifPresent(presigner::endpointOverride);
        return new QueryClients(
                factory.build(DynamoDbClient.builder()),
                factory.build(S3Client.builder().forcePathStyle(config.s3PathStyle())),
                presigner.build());
    }

    @Override
    public void close() {
        dynamoDb.close();
        s3.close();
        presigner.close();
    }
}
