package datalake.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.lambda.CannedHttpClient.Answer;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

class SdkClientFactoryTest {
    private static final StaticCredentialsProvider CREDENTIALS =
            StaticCredentialsProvider.create(AwsBasicCredentials.create("id", "secret"));

    @Test
    void everyClientGetsTheFactorysHttpClientRegionAndCallTimeouts() {
        CannedHttpClient http = new CannedHttpClient(List.of(Answer.body("ListTables", "{\"TableNames\":[\"records\"]}")));
        SdkClientFactory factory = SdkClientFactory.of(http, CREDENTIALS, Region.EU_WEST_1);

        try (DynamoDbClient dynamoDb = factory.build(DynamoDbClient.builder())) {
            assertEquals(List.of("records"), dynamoDb.listTables().tableNames());
            ClientOverrideConfiguration override = dynamoDb.serviceClientConfiguration().overrideConfiguration();
            assertEquals(Optional.of(SdkClientFactory.ATTEMPT_TIMEOUT), override.apiCallAttemptTimeout());
            assertEquals(Optional.of(SdkClientFactory.CALL_TIMEOUT), override.apiCallTimeout());
            assertEquals(Region.EU_WEST_1, dynamoDb.serviceClientConfiguration().region());
            assertEquals(Optional.empty(), dynamoDb.serviceClientConfiguration().endpointOverride(),
                    "the endpoint is left to the SDK's own settings");
        }
        assertEquals(1, http.calls());
    }

    @Test
    void anExplicitEndpointAndSettingsOfTheClientsOwnAreKept() {
        AtomicInteger intercepted = new AtomicInteger();
        ExecutionInterceptor counting = new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                intercepted.incrementAndGet();
            }
        };
        CannedHttpClient http = new CannedHttpClient(List.of(Answer.body("ListQueues", "{\"QueueUrls\":[]}")));
        SdkClientFactory factory = SdkClientFactory.of(http, CREDENTIALS, Region.US_EAST_1)
                .withEndpoint(URI.create("http://127.0.0.1:5000"))
                .withCallTimeouts(Duration.ofSeconds(60), Duration.ofSeconds(120));

        try (SqsClient sqs = factory.build(SqsClient.builder(), o -> o.addExecutionInterceptor(counting))) {
            sqs.listQueues();
            assertEquals(Optional.of(URI.create("http://127.0.0.1:5000")),
                    sqs.serviceClientConfiguration().endpointOverride());
            assertEquals(Optional.of(Duration.ofSeconds(120)),
                    sqs.serviceClientConfiguration().overrideConfiguration().apiCallTimeout());
        }
        assertEquals(1, intercepted.get(), "the client's own interceptor ran");
    }

    @Test
    void aFunctionsFactoryNeedsItsRegion() {
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> SdkClientFactory.forFunction(Environment.of(Map.of()), 8));

        assertTrue(e.getMessage().startsWith("AWS_REGION is not set"), e.getMessage());
    }

    @Test
    void aCallWithoutACannedAnswerFails() {
        CannedHttpClient http = new CannedHttpClient(List.of());
        try (DynamoDbClient dynamoDb = SdkClientFactory.of(http, CREDENTIALS, Region.US_EAST_1)
                .build(DynamoDbClient.builder(), o -> o.retryStrategy(r -> r.maxAttempts(1)))) {
            RuntimeException e = assertThrows(RuntimeException.class, dynamoDb::listTables);
            assertTrue(String.valueOf(e.getMessage()).contains("no canned answer for ListTables"), e.getMessage());
        }
    }
}
