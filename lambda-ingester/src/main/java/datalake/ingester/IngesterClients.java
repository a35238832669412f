package datalake.ingester;

import datalake.lambda.SdkClientFactory;
import java.util.function.Consumer;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The ingester's SDK clients: S3 for HeadObject, DynamoDB for the records and latest tables, SNS for
 * the reports, SQS for the dead letters (the last two null in the backfill function). Built once at init.
 * Those built here end each call by the deadline it is made under ({@link CallDeadline}).
 */
public record IngesterClients(S3Client s3, DynamoDbClient dynamoDb, SnsClient sns, SqsClient sqs)
        implements AutoCloseable {

    /** The four clients from one factory (in Lambda: one HTTP client, the role's credentials, AWS_REGION). */
    public static IngesterClients from(SdkClientFactory factory, IngesterConfig config) {
        return from(factory, config, override -> { });
    }

    /** The four clients, with {@code more} settings after the deadline's (a test's interceptor). */
    static IngesterClients from(SdkClientFactory factory, IngesterConfig config,
            Consumer<ClientOverrideConfiguration.Builder> more) {
        Consumer<ClientOverrideConfiguration.Builder> settings = withDeadlines(more);
        return new IngesterClients(
                factory.build(S3Client.builder().forcePathStyle(config.s3PathStyle()), settings),
                factory.build(DynamoDbClient.builder(), settings),
                factory.build(SnsClient.builder(), settings),
                factory.build(SqsClient.builder(), settings));
    }

    /** S3 and DynamoDB only: the backfill follows objects, and neither reports nor dead-letters. */
    public static IngesterClients forBackfill(SdkClientFactory factory, IngesterConfig config) {
        Consumer<ClientOverrideConfiguration.Builder> settings = withDeadlines(override -> { });
        return new IngesterClients(
                factory.build(S3Client.builder().forcePathStyle(config.s3PathStyle()), settings),
                factory.build(DynamoDbClient.builder(), settings),
                null,
                null);
    }

    /** The deadline's interceptor, capped at the client's own call timeout as the factory set it, then {@code more}. */
    private static Consumer<ClientOverrideConfiguration.Builder> withDeadlines(
            Consumer<ClientOverrideConfiguration.Builder> more) {
        return override -> {
            override.addExecutionInterceptor(new CallDeadline(override.apiCallTimeout()));
            more.accept(override);
        };
    }

    @Override
    public void close() {
        s3.close();
        dynamoDb.close();
        if (sns != null) {
            sns.close();
        }
        if (sqs != null) {
            sqs.close();
        }
    }
}
