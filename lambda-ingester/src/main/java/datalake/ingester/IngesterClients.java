package datalake.ingester;

import datalake.lambda.SdkClientFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The ingester's SDK clients: S3 for HeadObject, DynamoDB for the records and latest tables, SNS for
 * the reports, SQS for the dead letters (the last two null in the backfill function). Built once at init.
 */
public record IngesterClients(S3Client s3, DynamoDbClient dynamoDb, SnsClient sns, SqsClient sqs)
        implements AutoCloseable {

    /** The four clients from one factory (in Lambda: one HTTP client, the role's credentials, AWS_REGION). */
    public static IngesterClients from(SdkClientFactory factory, IngesterConfig config) {
        return new IngesterClients(
                factory.build(S3Client.builder().forcePathStyle(config.s3PathStyle())),
                factory.build(DynamoDbClient.builder()),
                factory.build(SnsClient.builder()),
                factory.build(SqsClient.builder()));
    }

    /** S3 and DynamoDB only: the backfill follows objects, and neither reports nor dead-letters. */
    public static IngesterClients forBackfill(SdkClientFactory factory, IngesterConfig config) {
        return new IngesterClients(
                factory.build(S3Client.builder().forcePathStyle(config.s3PathStyle())),
                factory.build(DynamoDbClient.builder()),
                null,
                null);
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
