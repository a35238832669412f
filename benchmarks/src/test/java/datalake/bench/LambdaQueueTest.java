package datalake.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import datalake.emulators.stack.FunctionSettings;
import datalake.emulators.stack.SqsEventSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The scale benchmark's queue settles batches as Lambda's SQS event source does with ReportBatchItemFailures. */
class LambdaQueueTest {
    private static final SqsEventSource SOURCE = new SqsEventSource("IngesterFunction", "IngestQueue",
            "http://sqs/ingest", "arn:aws:sqs:us-east-1:123456789012:ingest", 10, Duration.ZERO, 2, true);
    private static final FunctionSettings FUNCTION = new FunctionSettings("IngesterFunction", "ingester",
            "Handler::handleRequest", Duration.ofSeconds(60), 1024, Map.of());

    @Test
    void failuresComeBackUntilTheirLastReceiveAndTheRestLeave() throws Exception {
        // given a handler that fails m1 on its first receive and m2 on every one
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        try (LambdaQueue queue = new LambdaQueue(SOURCE, FUNCTION, Duration.ZERO, 3)) {
            queue.start(List.of((event, context) -> {
                List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
                event.getRecords().forEach(m -> {
                    String receive = m.getAttributes().get("ApproximateReceiveCount");
                    seen.add(m.getMessageId() + "#" + receive);
                    if (m.getMessageId().equals("m2") || (m.getMessageId().equals("m1") && receive.equals("1"))) {
                        failures.add(new SQSBatchResponse.BatchItemFailure(m.getMessageId()));
                    }
                });
                return new SQSBatchResponse(failures);
            }));

            // when five messages are sent
            for (int i = 0; i < 5; i++) {
                queue.send("m" + i, "{}");
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (seen.size() < 8 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }

            // then m1 came back once, m2 until its third receive, and the others were handled once
            List<String> receives = new ArrayList<>(seen);
            Collections.sort(receives);
            assertEquals(List.of("m0#1", "m1#1", "m1#2", "m2#1", "m2#2", "m2#3", "m3#1", "m4#1"), receives);
            assertEquals(4, queue.handedBack());
            assertEquals(1, queue.leftOnLastReceive());
        }
    }
}
