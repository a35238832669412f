package datalake.emulators;

import datalake.lambda.SdkClientFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/** Another {@link AwsEndpoints}'s emulators, with clients that sign with other credentials. */
final class CredentialedEndpoints implements AwsEndpoints {
    private final AwsEndpoints base;
    private final AwsCredentialsProvider credentials;
    private S3Client s3;
    private SqsClient sqs;
    private SnsClient sns;
    private DynamoDbClient dynamoDb;

    CredentialedEndpoints(AwsEndpoints base, AwsCredentialsProvider credentials) {
        this.base = base;
        this.credentials = credentials;
    }

    @Override
    public String name() {
        return base.name();
    }

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

    @Override
    public synchronized DynamoDbClient dynamoDb() {
        if (dynamoDb == null) {
            dynamoDb = dynamoDbClients().build(DynamoDbClient.builder());
        }
        return dynamoDb;
    }

    @Override
    public SdkClientFactory dynamoDbClients() {
        return base.dynamoDbClients().withCredentials(credentials);
    }

    @Override
    public SdkClientFactory s3Clients() {
        return base.s3Clients().withCredentials(credentials);
    }

    /** The base's endpoints, with these credentials in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY. */
    @Override
    public Map<String, String> endpointEnvironment() {
        Map<String, String> env = new LinkedHashMap<>(base.endpointEnvironment());
        AwsCredentials resolved = credentials.resolveCredentials();
        env.put("AWS_ACCESS_KEY_ID", resolved.accessKeyId());
        env.put("AWS_SECRET_ACCESS_KEY", resolved.secretAccessKey());
        return Map.copyOf(env);
    }

    @Override
    public String accountId() {
        return base.accountId();
    }

    @Override
    public String region() {
        return base.region();
    }

    @Override
    public AwsEndpoints withCredentials(AwsCredentialsProvider other) {
        return new CredentialedEndpoints(base, other);
    }
}
