package datalake.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import datalake.ingester.IngesterClients;
import datalake.ingester.IngesterConfig;
import datalake.lambda.ConfigurationException;
import datalake.lambda.Environment;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

/** AWS's time from a DynamoDB answer's Date header, and the one sentence the tools print without it. */
class AwsClockTest {
    private static final Instant LOCAL = Instant.parse("2026-11-27T10:00:00.400Z");

    /** A DynamoDB client whose every GetItem answers with {@code date} as its Date header (none when null). */
    private static DynamoDbClient answering(String date) {
        SdkHttpResponse.Builder http = SdkHttpResponse.builder().statusCode(200);
        if (date != null) {
            http.putHeader("Date", date);
        }
        GetItemResponse response = (GetItemResponse) GetItemResponse.builder().sdkHttpResponse(http.build()).build();
        return (DynamoDbClient) Proxy.newProxyInstance(AwsClockTest.class.getClassLoader(),
                new Class<?>[] {DynamoDbClient.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getItem" -> response;
                    case "close" -> null;
                    case "serviceName" -> "dynamodb";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void theLocalClockIsSetToTheDateOfTheAnswer() {
        Clock aws = AwsClock.of(answering("Fri, 27 Nov 2026 09:00:00 GMT"), "records", Clock.fixed(LOCAL, ZoneOffset.UTC));

        assertEquals(Instant.parse("2026-11-27T09:00:00Z"), aws.instant());
        assertEquals(Duration.ofMinutes(-60).minusMillis(400), Duration.between(LOCAL, aws.instant()));
    }

    @Test
    void withoutADateTheToolsStopWithOneSentenceBeforeFollowingAnything() {
        Environment env = Environment.of(Map.of("AWS_REGION", "us-east-1", "DATALAKE_DYNAMODB_TABLE", "records",
                "DATALAKE_LATEST_TABLE", "latest"));
        IngesterConfig config = IngesterConfig.forBackfill(env);

        ConfigurationException e = assertThrows(ConfigurationException.class, () -> Tools.on(config,
                new IngesterClients(null, answering(null), null, null), env, 1, Clock.systemUTC()));
        assertEquals("DynamoDB's answer has no Date header, so AWS's time is unknown and no day can be checked against"
                + " it; check AWS_ENDPOINT_URL_DYNAMODB.", e.getMessage());
        assertThrows(ConfigurationException.class, () -> AwsClock.of(answering("yesterday"), "records", Clock.systemUTC()));
    }
}
