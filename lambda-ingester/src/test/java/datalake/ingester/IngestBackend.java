package datalake.ingester;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/** The AWS emulators an integration suite runs against: moto + DynamoDB Local, or LocalStack. */
interface IngestBackend {
    String name();

    S3Client s3();

    SqsClient sqs();

    SnsClient sns();

    DynamoDbClient dynamoDb();

    /** A builder for a DynamoDB client of one's own (fault injection, fewer retries). */
    DynamoDbClientBuilder dynamoDbBuilder();

    /** AWS_ENDPOINT_URL_*, AWS_REGION and credentials for code that builds its own clients. */
    Map<String, String> endpointEnvironment();
}
