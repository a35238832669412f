package datalake.emulators;

import datalake.lambda.SdkClientFactory;
import java.net.URI;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * A DynamoDB Local and a moto of one's own, at known endpoints (the local runner's, the benchmarks'), as
 * {@link AwsEndpoints}: the same clients, credentials and region as {@link Emulators}'.
 */
public final class LocalEndpoints implements AwsEndpoints {
    private final URI dynamoDb;
    private final URI moto;
    private final DynamoDbClient dynamoDbClient;
    private final S3Client s3;
    private final SqsClient sqs;
    private final SnsClient sns;

    public LocalEndpoints(URI dynamoDb, URI moto) {
        this.dynamoDb = dynamoDb;
        this.moto = moto;
        this.dynamoDbClient = dynamoDbClients().build(DynamoDbClient.builder());
        this.s3 = s3Clients().build(S3Client.builder().forcePathStyle(true));
        this.sqs = s3Clients().build(SqsClient.builder());
        this.sns = s3Clients().build(SnsClient.builder());
    }

    @Override
    public String name() {
        return "moto at " + moto + " + DynamoDB Local at " + dynamoDb;
    }

    @Override
    public S3Client s3() {
        return s3;
    }

    @Override
    public SqsClient sqs() {
        return sqs;
    }

    @Override
    public SnsClient sns() {
        return sns;
    }

    @Override
    public DynamoDbClient dynamoDb() {
        return dynamoDbClient;
    }

    @Override
    public SdkClientFactory dynamoDbClients() {
        return Emulators.clientsFor(dynamoDb);
    }

    @Override
    public SdkClientFactory s3Clients() {
        return Emulators.clientsFor(moto);
    }

    @Override
    public Map<String, String> endpointEnvironment() {
        return Emulators.endpointEnvironment(dynamoDb, moto);
    }

    public URI motoEndpoint() {
        return moto;
    }

    public URI dynamoDbEndpoint() {
        return dynamoDb;
    }
}
