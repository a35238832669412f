package datalake.ingester;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import datalake.emulators.AwsEndpoints;
import datalake.emulators.Emulators;
import datalake.lambda.SdkClientFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.containers.localstack.LocalStackContainer.Service;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The same scenarios against LocalStack in Docker (Testcontainers) for S3, SQS and SNS: where Docker
 * exists (CI on GitHub) they run; elsewhere the class is skipped with the reason. DynamoDB stays on
 * dynalite: LocalStack's DynamoDB runs AWS's DynamoDB Local inside the container, whose licence is not
 * open source.
 *
 * <p>The image is pinned to the last LocalStack release that starts without an auth token
 * ({@code -Ddatalake.localstack.image} picks another; {@code LOCALSTACK_AUTH_TOKEN}, when set, is
 * passed on for the newer images that need one).
 */
class IngesterLocalStackIT extends IngesterScenarios {
    static final String IMAGE = System.getProperty("datalake.localstack.image", "localstack/localstack:4.12.0");

    private static LocalStackContainer localStack;
    private static AwsEndpoints backend;

    @BeforeAll
    static void startLocalStack() {
        assumeTrue(dockerAvailable(), "Docker is not available here, so the LocalStack variant of the ingester"
                + " integration suite is skipped (the moto + dynalite variant, IngesterIT, covers the same"
                + " scenarios); it runs where Docker exists, e.g. CI on GitHub.");
        localStack = new LocalStackContainer(DockerImageName.parse(IMAGE).asCompatibleSubstituteFor("localstack/localstack"))
                .withServices(Service.S3, Service.SQS, Service.SNS);
        String token = System.getenv("LOCALSTACK_AUTH_TOKEN");
        if (token != null && !token.isBlank()) {
            localStack.withEnv("LOCALSTACK_AUTH_TOKEN", token);
        }
        localStack.start();
        backend = new LocalStackBackend(localStack.getEndpoint(), Emulators.shared().dynamoDbEndpoint());
    }

    @AfterAll
    static void stopLocalStack() {
        if (backend instanceof LocalStackBackend clients) {
            clients.close();
        }
        if (localStack != null) {
            localStack.stop();
        }
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    @Override
    AwsEndpoints backend() {
        return backend;
    }

    /** SDK clients on LocalStack's endpoint (the same builders as for moto: path-style S3), DynamoDB's on dynalite. */
    private static final class LocalStackBackend implements AwsEndpoints, AutoCloseable {
        private final SdkClientFactory clients;
        private final SdkClientFactory dynamoDbClients;
        private final S3Client s3;
        private final SqsClient sqs;
        private final SnsClient sns;
        private final DynamoDbClient dynamoDb;

        LocalStackBackend(URI endpoint, URI dynamoDbEndpoint) {
            this.clients = Emulators.clientsFor(endpoint);
            this.dynamoDbClients = Emulators.clientsFor(dynamoDbEndpoint);
            this.s3 = clients.build(S3Client.builder().forcePathStyle(true));
            this.sqs = clients.build(SqsClient.builder());
            this.sns = clients.build(SnsClient.builder());
            this.dynamoDb = dynamoDbClients.build(DynamoDbClient.builder());
        }

        @Override
        public String name() {
            return "LocalStack " + IMAGE;
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
            return dynamoDb;
        }

        @Override
        public SdkClientFactory dynamoDbClients() {
            return dynamoDbClients;
        }

        /** LocalStack's default account: the ARNs it answers with. */
        @Override
        public String accountId() {
            return "000000000000";
        }

        @Override
        public SdkClientFactory s3Clients() {
            return clients;
        }

        @Override
        public Map<String, String> endpointEnvironment() {
            Map<String, String> env = new LinkedHashMap<>();
            env.put("AWS_ENDPOINT_URL", clients.endpoint().orElseThrow().toString());
            env.put("AWS_ENDPOINT_URL_DYNAMODB", dynamoDbClients.endpoint().orElseThrow().toString());
            env.put("AWS_REGION", Emulators.REGION.id());
            env.put("AWS_ACCESS_KEY_ID", "test");
            env.put("AWS_SECRET_ACCESS_KEY", "test");
            return env;
        }

        @Override
        public void close() {
            s3.close();
            sqs.close();
            sns.close();
            dynamoDb.close();
        }
    }
}
