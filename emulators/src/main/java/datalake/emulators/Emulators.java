package datalake.emulators;

import datalake.lambda.LambdaHttpClient;
import datalake.lambda.SdkClientFactory;
import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * AWS's emulators without Docker, one of each per JVM, started when first needed: dynalite (DynamoDB)
 * and a moto server (S3, SQS, SNS), both child processes, with SDK clients for them built
 * by the project's {@link SdkClientFactory}. Test classes share them, so each builds its stack under a
 * prefix of its own ({@link DatalakeStack#uniquePrefix}); the test-jar's {@code EmulatorsExtension} stops them when the
 * test run ends. Outside JUnit: {@link #shared()}, then {@link #close()} when done (both are also
 * stopped by a JVM shutdown hook); after {@code close()} the next use starts fresh, empty emulators.
 */
public final class Emulators extends ClientsOfFactories implements AutoCloseable {
    /** The region every local client and ARN uses. */
    public static final Region REGION = Region.US_EAST_1;
    /** Dummy credentials, letters and digits only (what every emulator accepts in a key id). */
    public static final String ACCESS_KEY_ID = "datalakelocal";
    public static final String SECRET_ACCESS_KEY = "datalakelocal";
    /** Emulators under load answer slower than AWS: generous timeouts, but timeouts. */
    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration CALL_TIMEOUT = Duration.ofMinutes(2);
    private static final int CONNECTIONS = 64;
    private static final Emulators SHARED = new Emulators();

    private Dynalite dynalite;
    private MotoServer moto;

    private Emulators() {
    }

    /** The emulators of this JVM. */
    public static Emulators shared() {
        return SHARED;
    }

    /**
     * Clients of an emulator at {@code endpoint}: the project's factory rules, dummy credentials,
     * {@link #REGION}, one HTTP client keeping up to 64 connections. S3 clients need
     * {@code forcePathStyle(true)}: emulators serve buckets on paths.
     */
    public static SdkClientFactory clientsFor(URI endpoint) {
        SdkHttpClient http = LambdaHttpClient.create(CONNECTIONS, Duration.ofSeconds(2), SOCKET_TIMEOUT);
        return SdkClientFactory.of(http, StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(ACCESS_KEY_ID, SECRET_ACCESS_KEY)), REGION)
                .withCallTimeouts(ATTEMPT_TIMEOUT, CALL_TIMEOUT)
                .withEndpoint(endpoint);
    }

    /**
     * A presigner of path-style S3 URLs of the moto at {@code endpoint}, with the local credentials (the
     * query function's {@code /data} links on emulators).
     */
    public static S3Presigner presignerFor(URI endpoint) {
        return presignerFor(endpoint, StaticCredentialsProvider.create(
                AwsBasicCredentials.create(ACCESS_KEY_ID, SECRET_ACCESS_KEY)));
    }

    /** {@link #presignerFor(URI)} signing with other credentials (a stack principal's: the query function's role). */
    public static S3Presigner presignerFor(URI endpoint, AwsCredentialsProvider credentials) {
        return S3Presigner.builder()
                .endpointOverride(endpoint)
                .region(REGION)
                .credentialsProvider(credentials)
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
                .build();
    }

    /** {@link #presignerFor} this JVM's moto. */
    public S3Presigner presigner() {
        return presignerFor(motoEndpoint());
    }

    @Override
    public String name() {
        return "moto + dynalite";
    }

    /** dynalite (DynamoDB), started; a test may stop and restart it (on the same port, empty). */
    public synchronized Dynalite dynalite() {
        if (dynalite == null) {
            Dynalite created = new Dynalite();
            created.start();
            dynalite = created;
        }
        return dynalite;
    }

    /** The moto server (S3, SQS, SNS), started. */
    public synchronized MotoServer moto() {
        if (moto == null) {
            MotoServer created = new MotoServer();
            created.start();
            moto = created;
        }
        return moto;
    }

    public URI dynamoDbEndpoint() {
        return dynalite().endpoint();
    }

    /** The endpoint for S3 (path style), SQS and SNS. */
    public URI motoEndpoint() {
        return moto().endpoint();
    }

    @Override
    public SdkClientFactory dynamoDbClients() {
        return clientsFor(dynamoDbEndpoint());
    }

    @Override
    public SdkClientFactory s3Clients() {
        return clientsFor(motoEndpoint());
    }

    @Override
    public Map<String, String> endpointEnvironment() {
        return endpointEnvironment(dynamoDbEndpoint(), motoEndpoint());
    }

    /** {@link #endpointEnvironment()} for emulators at the given endpoints (the local runner's own). */
    public static Map<String, String> endpointEnvironment(URI dynamoDb, URI moto) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("AWS_ENDPOINT_URL_DYNAMODB", dynamoDb.toString());
        env.put("AWS_ENDPOINT_URL_S3", moto.toString());
        env.put("AWS_ENDPOINT_URL_SQS", moto.toString());
        env.put("AWS_ENDPOINT_URL_SNS", moto.toString());
        env.put("AWS_REGION", REGION.id());
        env.put("AWS_ACCESS_KEY_ID", ACCESS_KEY_ID);
        env.put("AWS_SECRET_ACCESS_KEY", SECRET_ACCESS_KEY);
        return Collections.unmodifiableMap(env);
    }

    /** A test class that stopped dynalite to simulate an outage must not leave the next without it. */
    public synchronized void restartDynamoDbIfStopped() {
        if (dynalite != null && !dynalite.isRunning()) {
            dynalite.start();
        }
    }

    /** Closes the shared clients and stops both emulators; their data is gone. */
    @Override
    public synchronized void close() {
        closeClients();
        try {
            if (moto != null) {
                moto.stop();
            }
        } finally {
            moto = null;
            if (dynalite != null) {
                Dynalite stopping = dynalite;
                dynalite = null;
                stopping.stop();
            }
        }
    }
}
