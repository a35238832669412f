package datalake.lambda;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.regions.Region;

/**
 * Builds every SDK client of the project with one set of rules: one HTTP client shared by all of them,
 * credentials and region decided once, call timeouts on every client (a hung call fails, transient,
 * well inside the invocation), and the endpoint left to the SDK's own settings
 * ({@code AWS_ENDPOINT_URL}, {@code AWS_ENDPOINT_URL_<SERVICE>}) unless one is given explicitly, as the
 * emulators do for the clients of one JVM.
 *
 * <pre>{@code
 * SdkClientFactory clients = SdkClientFactory.forFunction(Environment.system(), 8);
 * S3Client s3 = clients.build(S3Client.builder().forcePathStyle(pathStyle));
 * DynamoDbClient dynamoDb = clients.build(DynamoDbClient.builder());
 * }</pre>
 */
public final class SdkClientFactory {
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(10);
    static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(10);
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(25);

    private final SdkHttpClient http;
    private final AwsCredentialsProvider credentials;
    private final Region region;
    private final URI endpoint;
    private final Duration attemptTimeout;
    private final Duration callTimeout;

    private SdkClientFactory(SdkHttpClient http, AwsCredentialsProvider credentials, Region region, URI endpoint,
            Duration attemptTimeout, Duration callTimeout) {
        this.http = Objects.requireNonNull(http, "http");
        this.credentials = Objects.requireNonNull(credentials, "credentials");
        this.region = Objects.requireNonNull(region, "region");
        this.endpoint = endpoint;
        this.attemptTimeout = Objects.requireNonNull(attemptTimeout, "attemptTimeout");
        this.callTimeout = Objects.requireNonNull(callTimeout, "callTimeout");
    }

    /**
     * A function's clients: the URL-connection HTTP client keeping a connection for each of
     * {@code concurrentCalls} (see {@link LambdaHttpClient}), the credentials Lambda provides
     * ({@link LambdaCredentials}) and AWS_REGION, which must be set.
     */
    public static SdkClientFactory forFunction(Environment env, int concurrentCalls) {
        Region region = Region.of(env.region());
        return new SdkClientFactory(functionHttpClient(concurrentCalls), LambdaCredentials.of(env.values()), region,
                null, ATTEMPT_TIMEOUT, CALL_TIMEOUT);
    }

    /**
     * A function's HTTP client: URL-connection, 2 s to connect, 10 s without an answer, a connection
     * kept for each of {@code concurrentCalls} (the benchmarks measure through it too).
     */
    public static SdkHttpClient functionHttpClient(int concurrentCalls) {
        return LambdaHttpClient.create(concurrentCalls, CONNECT_TIMEOUT, SOCKET_TIMEOUT);
    }

    /** Clients on a given HTTP client and credentials: SnapStart priming's canned answers, the emulators. */
    public static SdkClientFactory of(SdkHttpClient http, AwsCredentialsProvider credentials, Region region) {
        return new SdkClientFactory(http, credentials, region, null, ATTEMPT_TIMEOUT, CALL_TIMEOUT);
    }

    /** The same rules with every client sent to {@code endpoint} (an emulator's). */
    public SdkClientFactory withEndpoint(URI endpoint) {
        return new SdkClientFactory(http, credentials, region, Objects.requireNonNull(endpoint, "endpoint"),
                attemptTimeout, callTimeout);
    }

    /** The same rules with other credentials (the emulated stack gives each function's role its own). */
    public SdkClientFactory withCredentials(AwsCredentialsProvider other) {
        return new SdkClientFactory(http, Objects.requireNonNull(other, "credentials"), region, endpoint, attemptTimeout,
                callTimeout);
    }

    /**
     * The same rules with other call timeouts: emulators under load answer slower than AWS, and a
     * long poll of SQS waits up to 20 seconds.
     */
    public SdkClientFactory withCallTimeouts(Duration attempt, Duration call) {
        return new SdkClientFactory(http, credentials, region, endpoint, attempt, call);
    }

    /** The builder, completed with this factory's rules, built. */
    public <B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>, C> C build(B builder) {
        return build(builder, override -> { });
    }

    /**
     * The builder, completed with this factory's rules and {@code more} settings of the client's own
     * (an interceptor, a retry strategy), built.
     */
    public <B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>, C> C build(B builder,
            Consumer<ClientOverrideConfiguration.Builder> more) {
        ClientOverrideConfiguration.Builder override = ClientOverrideConfiguration.builder()
                .apiCallAttemptTimeout(attemptTimeout)
                .apiCallTimeout(callTimeout);
        more.accept(override);
        builder.httpClient(http).credentialsProvider(credentials).region(region)
                .overrideConfiguration(override.build());
        if (endpoint != null) {
            builder.endpointOverride(endpoint);
        }
        return builder.build();
    }

    public Region region() {
        return region;
    }

    public AwsCredentialsProvider credentials() {
        return credentials;
    }

    /** The explicit endpoint, or empty when the SDK's own settings decide. */
    public Optional<URI> endpoint() {
        return Optional.ofNullable(endpoint);
    }
}
