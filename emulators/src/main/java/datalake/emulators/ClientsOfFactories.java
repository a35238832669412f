package datalake.emulators;

import software.amazon.awssdk.core.SdkClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * An {@link AwsEndpoints} whose shared clients are built, on first use, by its own factories: path-style
 * S3, SQS and SNS from {@link #s3Clients()}, DynamoDB from {@link #dynamoDbClients()}.
 */
abstract class ClientsOfFactories implements AwsEndpoints {
    private DynamoDbClient dynamoDb;
    private S3Client s3;
    private SqsClient sqs;
    private SnsClient sns;

    @Override
    public synchronized DynamoDbClient dynamoDb() {
        if (dynamoDb == null) {
            dynamoDb = dynamoDbClients().build(DynamoDbClient.builder());
        }
        return dynamoDb;
    }

    /** A shared path-style client. */
    @Override
    public synchronized S3Client s3() {
        if (s3 == null) {
            s3 = s3Clients().build(S3Client.builder().forcePathStyle(true));
        }
        return s3;
    }

    @Override
    public synchronized SqsClient sqs() {
        if (sqs == null) {
            sqs = s3Clients().build(SqsClient.builder());
        }
        return sqs;
    }

    @Override
    public synchronized SnsClient sns() {
        if (sns == null) {
            sns = s3Clients().build(SnsClient.builder());
        }
        return sns;
    }

    /** Closes the clients built so far; the next use builds new ones. */
    synchronized void closeClients() {
        for (SdkClient client : new SdkClient[] {dynamoDb, s3, sqs, sns}) {
            if (client != null) {
                client.close();
            }
        }
        dynamoDb = null;
        s3 = null;
        sqs = null;
        sns = null;
    }
}
