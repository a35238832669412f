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
import datalake.records.RecordFactory;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
