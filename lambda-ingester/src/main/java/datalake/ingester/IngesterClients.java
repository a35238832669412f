package datalake.ingester;

import datalake.lambda.SdkClientFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The ingester's SDK clients: S3 for HeadObject, DynamoDB for the records and latest tables, SNS for
 * the reports, SQS for the dead letters. Built once at init.
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

    @Override
    public void close() {
        s3.close();
        dynamoDb.close();
        sns.close();
        sqs.close();
    }
}
