package datalake.local;

import datalake.emulators.Emulators;
import java.net.URI;
import java.net.http.HttpRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * GET requests to the local API, SigV4-signed with the local credentials when it runs with
 * {@code --auth iam} (the runner's own readiness checks are callers like any other).
 */
final class LocalSigner {
    private final boolean sign;
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

    LocalSigner(RunnerOptions.Auth auth) {
        this.sign = auth == RunnerOptions.Auth.IAM;
    }

    HttpRequest get(String url) {
        URI uri = URI.create(url);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri);
        if (sign) {
            SdkHttpRequest signed = signer.sign(r -> r
                    .identity(AwsCredentialsIdentity.create(Emulators.ACCESS_KEY_ID, Emulators.SECRET_ACCESS_KEY))
                    .request(SdkHttpRequest.builder().method(SdkHttpMethod.GET).uri(uri).build())
                    .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "execute-api")
                    .putProperty(AwsV4HttpSigner.REGION_NAME, Emulators.REGION.id())).request();
            signed.forEachHeader((name, values) -> {
                if (!name.equalsIgnoreCase("host")) {
                    values.forEach(value -> request.header(name, value));
                }
            });
        }
        return request.build();
    }
}
