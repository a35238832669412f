package datalake.lambda;

import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ContainerCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider;

/** The credentials of a function, decided once at init. */
public final class LambdaCredentials {
    private LambdaCredentials() {
    }

    /**
     * Where Lambda puts the role's credentials: the environment's keys (a function without
     * SnapStart), else the container endpoint (SnapStart: keys in a snapshot would expire), else the
     * SDK's whole default chain (a laptop). Walking the chain at every cold start would load and try
     * the providers before the one that answers.
     */
    public static AwsCredentialsProvider of(Map<String, String> env) {
        if (env.get("AWS_ACCESS_KEY_ID") != null && env.get("AWS_SECRET_ACCESS_KEY") != null) {
            return EnvironmentVariableCredentialsProvider.create();
        }
        if (env.get("AWS_CONTAINER_CREDENTIALS_FULL_URI") != null
                || env.get("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") != null) {
            return ContainerCredentialsProvider.builder().build();
        }
        return DefaultCredentialsProvider.builder().build();
    }
}
