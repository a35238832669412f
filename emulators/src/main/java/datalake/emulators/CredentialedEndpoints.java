package datalake.emulators;

import datalake.lambda.SdkClientFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/** Another {@link AwsEndpoints}'s emulators, with clients that sign with other credentials. */
final class CredentialedEndpoints extends ClientsOfFactories {
    private final AwsEndpoints base;
    private final AwsCredentialsProvider credentials;

    CredentialedEndpoints(AwsEndpoints base, AwsCredentialsProvider credentials) {
        this.base = base;
        this.credentials = credentials;
    }

    @Override
    public String name() {
        return base.name();
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
