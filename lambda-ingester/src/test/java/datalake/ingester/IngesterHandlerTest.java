package datalake.ingester;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import datalake.lambda.CannedHttpClient;
import datalake.lambda.SdkClientFactory;
import datalake.records.RecordFactory;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.regions.Region;

class IngesterHandlerTest {

    @ParameterizedTest
    @CsvSource({
        // remaining ms, budget ms: a fifth is kept back, at least 0.5 s and at most 5 s
        "60000, 55000",
        "10000, 8000",
        "2000, 1500",
        "400, 0",
    })
    void theWriteBudgetLeavesAMarginOfTheRemainingTime(int remaining, long budget) {
        assertEquals(Duration.ofMillis(budget), IngesterHandler.budget(context(remaining)));
    }

    @Test
    void everyCallOfTheInvocationEndsBeforeItDoes() {
        // given 60 s left: 55 s for the objects, and every call after them (dead letters, reports) ends
        // 100 ms before the invocation, for the log lines and the answer
        FakeClock clock = new FakeClock();
        Deadline deadline = IngesterHandler.deadline(clock, context(60_000));

        assertEquals(55_000, deadline.remainingMillis());
        assertEquals(clock.millis() + 59_900, deadline.endMillis());
        assertEquals(clock.millis() + 57_450, deadline.checkBy().epochMillis());
    }

    @Test
    void withoutAContextTheBudgetIsTheDefault() {
        assertEquals(IngesterHandler.DEFAULT_BUDGET, IngesterHandler.budget(null));
    }

    @Test
    void theHandlerPassesTheBatchAndAnswersItsFailures() {
        // given the mixed fixture batch and an ingester whose bucket does not exist (NoSuchBucket for
        // every object) and whose dead-letter queue is down: every permanent failure must come back
        Fakes.DeadLetters deadLetters = new Fakes.DeadLetters();
        deadLetters.failing = true;
        FakeClock clock = new FakeClock();
        Fakes.Lines lines = new Fakes.Lines();
        Fakes.Records table = new Fakes.Records(false);
        Fakes.Objects noBucket = new Fakes.Objects();
        noBucket.missingBuckets.add("datalake-example");
        try (Ingester ingester = Ingester.builder()
                .recordFactory(new RecordFactory())
                .objects(noBucket)
                .records(table)
                .index(table)
                .reports(new Fakes.Reports())
                .deadLetters(deadLetters)
                .telemetry(lines.telemetry(clock))
                .clock(clock)
                .functionName("test")
                .concurrency(2)
                .build()) {
            IngesterHandler handler = new IngesterHandler(ingester, clock);
            SQSEvent event = EventLoader.loadSQSEvent("events/sqs/mixed-batch.json");

            // when
            SQSBatchResponse response = handler.handleRequest(event, context(30_000));

            // then only the test event (a success) is acknowledged
            Set<String> retried = response.getBatchItemFailures().stream()
                    .map(SQSBatchResponse.BatchItemFailure::getItemIdentifier).collect(Collectors.toSet());
            Set<String> expected = event.getRecords().stream().map(SQSEvent.SQSMessage::getMessageId)
                    .filter(id -> !id.endsWith("0004")).collect(Collectors.toSet());
            assertEquals(expected, retried);
            assertTrue(lines.lines.stream().anyMatch(l -> l.contains("\"requestId\":\"request-7\"")));
        }
    }

    @Test
    void anEmptyEventIsAnEmptyAnswer() {
        FakeClock clock = new FakeClock();
        Fakes.Records table = new Fakes.Records(false);
        try (Ingester ingester = Ingester.builder()
                .recordFactory(new RecordFactory())
                .objects(new Fakes.Objects())
                .records(table)
                .index(table)
                .reports(new Fakes.Reports())
                .deadLetters(new Fakes.DeadLetters())
                .telemetry(new Fakes.Lines().telemetry(clock))
                .clock(clock)
                .functionName("test")
                .concurrency(1)
                .build()) {
            IngesterHandler handler = new IngesterHandler(ingester, clock);

            assertEquals(List.of(), handler.handleRequest(new SQSEvent(), null).getBatchItemFailures());
            assertEquals(List.of(), handler.handleRequest(null, null).getBatchItemFailures());
        }
    }

    @Test
    void theIngesterAsTheHandlerBuildsItHeadsAFullBatchOfTheTriggersSizeAtOnce() {
        // given the ingester as the handler builds it, told the trigger's batch size as template.yaml tells
        // it, on SDK clients answered without the network whose HEADs wait until ten are in flight (2 s at most)
        Map<String, String> env = new HashMap<>(Map.of(
                "DATALAKE_DYNAMODB_TABLE", "records",
                "DATALAKE_DLQ_URL", "https://sqs.us-east-1.amazonaws.com/000000000000/dlq",
                "AWS_REGION", "us-east-1",
                "DATALAKE_INGEST_BATCH_SIZE", "10"));
        IngesterConfig config = IngesterConfig.fromEnvironment(env);
        HeadsInFlight http = new HeadsInFlight(new CannedHttpClient(IngesterPriming.ANSWERS), 10);
        SdkClientFactory factory = SdkClientFactory.of(http,
                StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")), Region.US_EAST_1);
        List<SQSEvent.SQSMessage> batch = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            SQSEvent.SQSMessage message = new SQSEvent.SQSMessage();
            message.setMessageId("m" + i);
            message.setBody(IngesterPriming.RAW_S3_EVENT.replace("priming/data+1", "batch/file-" + i));
            batch.add(message);
        }

        // when a full batch comes
        try (IngesterClients clients = IngesterClients.from(factory, config);
             Ingester ingester = Ingester.forAws(config, clients).telemetry(Telemetry.discarding()).build()) {
            ingester.handle(batch, Deadline.after(Clock.systemUTC(), Duration.ofSeconds(20)), "test");
        }

        // then its ten HEADs were in flight together: one round trip, not 8 and then 2
        assertEquals(10, http.heads.get(), "HEADs made");
        assertEquals(10, http.mostInFlight.get(), "HEADs in flight at once");
    }

    /** Counts the HEADs in flight; each waits until {@code awaited} are, or 2 s. */
    private static final class HeadsInFlight implements SdkHttpClient {
        final AtomicInteger heads = new AtomicInteger();
        final AtomicInteger mostInFlight = new AtomicInteger();
        private final AtomicInteger inFlight = new AtomicInteger();
        private final CountDownLatch together;
        private final SdkHttpClient answers;

        HeadsInFlight(SdkHttpClient answers, int awaited) {
            this.answers = answers;
            this.together = new CountDownLatch(awaited);
        }

        @Override
        public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
            ExecutableHttpRequest answer = answers.prepareRequest(request);
            if (request.httpRequest().method() != SdkHttpMethod.HEAD) {
                return answer;
            }
            return new ExecutableHttpRequest() {
                @Override
                public HttpExecuteResponse call() throws IOException {
                    heads.incrementAndGet();
                    mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                    together.countDown();
                    try {
                        together.await(2, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    inFlight.decrementAndGet();
                    return answer.call();
                }

                @Override
                public void abort() {
                }
            };
        }

        @Override
        public void close() {
        }
    }

    static Context context(int remainingMillis) {
        return new Context() {
            @Override
            public String getAwsRequestId() {
                return "request-7";
            }

            @Override
            public String getLogGroupName() {
                return "/aws/lambda/datalake-ingester";
            }

            @Override
            public String getLogStreamName() {
                return "2024/05/14/[$LATEST]0123456789abcdef";
            }

            @Override
            public String getFunctionName() {
                return "datalake-ingester";
            }

            @Override
            public String getFunctionVersion() {
                return "$LATEST";
            }

            @Override
            public String getInvokedFunctionArn() {
                return "arn:aws:lambda:us-east-1:123456789012:function:datalake-ingester";
            }

            @Override
            public CognitoIdentity getIdentity() {
                return null;
            }

            @Override
            public ClientContext getClientContext() {
                return null;
            }

            @Override
            public int getRemainingTimeInMillis() {
                return remainingMillis;
            }

            @Override
            public int getMemoryLimitInMB() {
                return 1024;
            }

            @Override
            public LambdaLogger getLogger() {
                return null;
            }
        };
    }
}
