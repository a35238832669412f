package datalake.localstack;

import java.net.URI;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import software.amazon.awssdk.core.SdkClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * One DynamoDB Local and one moto server per JVM, started when first needed, and SDK clients for them.
 *
 * <p>As a JUnit 5 extension ({@code @ExtendWith(LocalAws.class)}, or {@code @RegisterExtension static
 * final LocalAws AWS = LocalAws.shared();}) it injects {@code LocalAws}, {@link DynamoDbClient},
 * {@link S3Client}, {@link SqsClient} and {@link SnsClient} parameters and stops the emulators when the
 * whole test run ends. Every instance is a view of the same per-JVM emulators, so test classes share
 * them: give each class its own resource names ({@link StackNames#unique}).
 *
 * <p>Without JUnit: {@code LocalAws.shared()}, then {@link #close()} when done (moto is also stopped by
 * a JVM shutdown hook). After {@code close()} the next use starts fresh, empty emulators.
 */
public final class LocalAws implements BeforeAllCallback, ParameterResolver, AutoCloseable {
    private static final LocalAws SHARED = new LocalAws();
    private static final Emulators EMULATORS = new Emulators();
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(LocalAws.class);
    private static final Set<Class<?>> INJECTED =
            Set.of(LocalAws.class, DynamoDbClient.class, S3Client.class, SqsClient.class, SnsClient.class);

    /** For {@code @ExtendWith}; same as {@link #shared()}. */
    public LocalAws() {}

    public static LocalAws shared() {
        return SHARED;
    }

    /** The in-process DynamoDB Local, started; a test may stop and restart it (on the same port). */
    public DynamoDbLocal dynamoDbLocal() {
        return EMULATORS.dynamoDbLocal();
    }

    /** The moto server (S3, SQS, SNS), started. */
    public MotoServer moto() {
        return EMULATORS.moto();
    }

    public URI dynamoDbEndpoint() {
        return dynamoDbLocal().endpoint();
    }

    /** The endpoint for S3 (path style), SQS and SNS. */
    public URI motoEndpoint() {
        return moto().endpoint();
    }

    /** A shared client; build your own with {@link AwsClients#dynamoDbBuilder} to customise it. */
    public DynamoDbClient dynamoDb() {
        return EMULATORS.dynamoDb();
    }

    /** A shared path-style client; build your own with {@link AwsClients#s3Builder} to customise it. */
    public S3Client s3() {
        return EMULATORS.s3();
    }

    public SqsClient sqs() {
        return EMULATORS.sqs();
    }

    public SnsClient sns() {
        return EMULATORS.sns();
    }

    /**
     * The SDK's endpoint settings for code that builds its own default clients (a handler under test, a
     * child process): AWS_ENDPOINT_URL_DYNAMODB, _S3, _SQS, _SNS, AWS_REGION and dummy credentials.
     */
    public Map<String, String> endpointEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("AWS_ENDPOINT_URL_DYNAMODB", dynamoDbEndpoint().toString());
        env.put("AWS_ENDPOINT_URL_S3", motoEndpoint().toString());
        env.put("AWS_ENDPOINT_URL_SQS", motoEndpoint().toString());
        env.put("AWS_ENDPOINT_URL_SNS", motoEndpoint().toString());
        env.put("AWS_REGION", AwsClients.REGION.id());
        env.put("AWS_ACCESS_KEY_ID", AwsClients.ACCESS_KEY_ID);
        env.put("AWS_SECRET_ACCESS_KEY", AwsClients.SECRET_ACCESS_KEY);
        return Collections.unmodifiableMap(env);
    }

    /** Closes the shared clients and stops both emulators; their data is gone. */
    @Override
    public void close() {
        EMULATORS.close();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        // The root store is closed once, after the last test class: then the emulators stop.
        context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(Emulators.class, k -> EMULATORS, Emulators.class);
        // A class that stopped DynamoDB Local to simulate an outage must not leave the next class without it.
        EMULATORS.restartDynamoDbIfStopped();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return INJECTED.contains(parameter.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        if (type == DynamoDbClient.class) {
            return dynamoDb();
        } else if (type == S3Client.class) {
            return s3();
        } else if (type == SqsClient.class) {
            return sqs();
        } else if (type == SnsClient.class) {
            return sns();
        }
        return this;
    }

    /** The per-JVM state behind every LocalAws. */
    private static final class Emulators implements AutoCloseable {
        private DynamoDbLocal dynamoDbLocal;
        private MotoServer moto;
        private DynamoDbClient dynamoDb;
        private S3Client s3;
        private SqsClient sqs;
        private SnsClient sns;

        synchronized DynamoDbLocal dynamoDbLocal() {
            if (dynamoDbLocal == null) {
                DynamoDbLocal created = new DynamoDbLocal();
                created.start();
                dynamoDbLocal = created;
            }
            return dynamoDbLocal;
        }

        synchronized MotoServer moto() {
            if (moto == null) {
                MotoServer created = new MotoServer();
                created.start();
                moto = created;
            }
            return moto;
        }

        synchronized void restartDynamoDbIfStopped() {
            if (dynamoDbLocal != null && !dynamoDbLocal.isRunning()) {
                dynamoDbLocal.start();
            }
        }

        synchronized DynamoDbClient dynamoDb() {
            if (dynamoDb == null) {
                dynamoDb = AwsClients.dynamoDb(dynamoDbLocal().endpoint());
            }
            return dynamoDb;
        }

        synchronized S3Client s3() {
            if (s3 == null) {
                s3 = AwsClients.s3(moto().endpoint());
            }
            return s3;
        }

        synchronized SqsClient sqs() {
            if (sqs == null) {
                sqs = AwsClients.sqs(moto().endpoint());
            }
            return sqs;
        }

        synchronized SnsClient sns() {
            if (sns == null) {
                sns = AwsClients.sns(moto().endpoint());
            }
            return sns;
        }

        @Override
        public synchronized void close() {
            for (SdkClient client : new SdkClient[] {dynamoDb, s3, sqs, sns}) {
                if (client != null) {
                    client.close();
                }
            }
            dynamoDb = null;
            s3 = null;
            sqs = null;
            sns = null;
            try {
                if (moto != null) {
                    moto.stop();
                }
            } finally {
                moto = null;
                if (dynamoDbLocal != null) {
                    DynamoDbLocal stopping = dynamoDbLocal;
                    dynamoDbLocal = null;
                    stopping.stop();
                }
            }
        }
    }
}
