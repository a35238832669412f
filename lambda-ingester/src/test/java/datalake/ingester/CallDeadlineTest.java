package datalake.ingester;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import datalake.lambda.CannedHttpClient;
import datalake.lambda.SdkClientFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.RequestOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.regions.Region;

/**
 * The ingester's SDK calls against a server that accepts connections and never answers: each call ends
 * by the deadline it is made under, the objects' or, for the dead letters and reports, the invocation's
 * end, and a call cut short is a transient failure of its object, as TimeBudget.
 */
class CallDeadlineTest {
    private static final Duration CLIENT_CALL_TIMEOUT = Duration.ofSeconds(3);

    private final FakeClock clock = new FakeClock();
    private final Fakes.Lines lines = new Fakes.Lines();
    /** The apiCallTimeout each call was given (absent: the client's own), by operation, and the clock then. */
    private final Map<String, Optional<Duration>> given = new ConcurrentHashMap<>();
    private final Map<String, Long> givenAt = new ConcurrentHashMap<>();
    private ServerSocket silent;
    private final List<Socket> held = new CopyOnWriteArrayList<>();

    @BeforeEach
    void listen() throws IOException {
        silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!silent.isClosed()) {
                try {
                    held.add(silent.accept()); // kept open, never read, never answered
                } catch (IOException closed) {
                    return;
                }
            }
        }, "silent-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterEach
    void close() throws IOException {
        silent.close();
        for (Socket socket : held) {
            socket.close();
        }
    }

    private static IngesterConfig config() {
        return IngesterConfig.fromEnvironment(Map.of(
                "DATALAKE_DYNAMODB_TABLE", "records",
                "DATALAKE_DLQ_URL", "https://sqs.us-east-1.amazonaws.com/000000000000/dlq",
                "DATALAKE_REPORT_TOPIC_ARN", "arn:aws:sns:us-east-1:000000000000:reports",
                "DATALAKE_MAX_RECEIVE_COUNT", "5",
                "DATALAKE_S3_PATH_STYLE", "true",
                "AWS_REGION", "us-east-1"));
    }

    /** Clients whose every call goes to the silent server; the client's own call timeout is 3 s. */
    private IngesterClients silentClients() {
        SdkClientFactory factory = SdkClientFactory.of(SdkClientFactory.functionHttpClient(2),
                StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")), Region.US_EAST_1)
                .withEndpoint(URI.create("http://127.0.0.1:" + silent.getLocalPort()))
                .withCallTimeouts(Duration.ofSeconds(2), CLIENT_CALL_TIMEOUT);
        return IngesterClients.from(factory, config(), o -> o.addExecutionInterceptor(recorder()));
    }

    /** Clients answered at once, without the network, as SnapStart priming answers them. */
    private IngesterClients answeredClients() {
        SdkClientFactory factory = SdkClientFactory.of(new CannedHttpClient(IngesterPriming.ANSWERS),
                StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")), Region.US_EAST_1);
        return IngesterClients.from(factory, config(), o -> o.addExecutionInterceptor(recorder()));
    }

    /** Notes the timeout each call goes out with, after the deadline's interceptor has set it. */
    private ExecutionInterceptor recorder() {
        return new ExecutionInterceptor() {
            @Override
            public void beforeMarshalling(Context.BeforeMarshalling context, ExecutionAttributes attributes) {
                String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
                given.put(operation, context.request().overrideConfiguration()
                        .flatMap(RequestOverrideConfiguration::apiCallTimeout));
                givenAt.put(operation, clock.millis());
            }
        };
    }

    private static SQSMessage upload(String id, int receiveCount) {
        SQSMessage message = TestFiles.message(id, IngesterPriming.RAW_S3_EVENT);
        message.setAttributes(Map.of("ApproximateReceiveCount", Integer.toString(receiveCount)));
        return message;
    }

    private static List<String> retried(SQSBatchResponse response) {
        return response.getBatchItemFailures().stream().map(SQSBatchResponse.BatchItemFailure::getItemIdentifier).toList();
    }

    /** The latest moment the call may run to: when it was made plus the timeout it was given. */
    private long endOf(String operation) {
        Optional<Duration> timeout = given.get(operation);
        assertTrue(timeout != null && timeout.isPresent(), operation + " was given no timeout of its own: " + given);
        return givenAt.get(operation) + timeout.get().toMillis();
    }

    @Test
    void aHeadThatNeverAnswersIsCutAtTheDeadlineAndItsMessageComesBackAsTimeBudget() {
        // given the ingester as the handler builds it, on a bucket that never answers, and 300 ms of budget
        // in an invocation that ends 600 ms from now
        try (IngesterClients clients = silentClients();
             Ingester ingester = Ingester.forAws(config(), clients).telemetry(lines.telemetry(clock)).clock(clock)
                     .build()) {
            Deadline deadline = Deadline.after(clock, Duration.ofMillis(300), Duration.ofMillis(600));

            // when an upload comes
            SQSBatchResponse response = ingester.handle(List.of(upload("m", 1)), deadline, null);

            // then the HEAD was given until the deadline, no later, and the message comes back as TimeBudget
            assertTrue(endOf("HeadObject") <= deadline.epochMillis(), "HeadObject: " + given);
            assertEquals(List.of("m"), retried(response));
            assertTrue(lines.lines.stream().anyMatch(l -> l.contains("\"message handled\"")
                    && l.contains("\"error_kind\":\"TimeBudget\"") && l.contains("during S3 HeadObject")),
                    String.join("\n", lines.lines));
        }
    }

    @Test
    void theDeadLettersAndReportsAfterTheDeadlineEndByTheInvocationsEnd() {
        // given the same bucket and ingest table that never answer, and a topic that never answers either,
        // with the dead-letter queue answering, for a message on its last receive
        try (IngesterClients silent = silentClients();
             IngesterClients answered = answeredClients();
             Ingester ingester = Ingester.forAws(config(), new IngesterClients(silent.s3(), silent.dynamoDb(),
                     silent.sns(), answered.sqs())).telemetry(lines.telemetry(clock)).clock(clock).build()) {
            Deadline deadline = Deadline.after(clock, Duration.ofMillis(300), Duration.ofMillis(600));

            // when
            SQSBatchResponse response = ingester.handle(List.of(upload("m", 5)), deadline, null);

            // then the object's HEAD ended by the deadline, the dead letter and the report by the
            // invocation's end: the message is dead-lettered (acknowledged), its report not published
            assertTrue(endOf("HeadObject") <= deadline.epochMillis(), "HeadObject: " + given);
            assertTrue(endOf("SendMessageBatch") <= deadline.endMillis(), "SendMessageBatch: " + given);
            assertTrue(endOf("PublishBatch") <= deadline.endMillis(), "PublishBatch: " + given);
            assertEquals(List.of(), retried(response));
            assertTrue(lines.lines.stream().anyMatch(l -> l.contains("report not published")
                    && l.contains("during Sns PublishBatch")), String.join("\n", lines.lines));
        }
    }

    @Test
    void aCallWithNoTimeLeftDoesNotStart() {
        // given a deadline that has come
        try (IngesterClients clients = silentClients()) {
            Deadline passed = Deadline.after(clock, Duration.ZERO);

            // when a HEAD is asked for under it
            RuntimeException e = assertThrows(RuntimeException.class, () -> CallDeadline.within(passed,
                    () -> clients.s3().headObject(r -> r.bucket("priming").key("data"))));

            // then it never reached the server, and fails its object as TimeBudget
            assertEquals(Map.of(), given, "no request went out");
            assertEquals(List.of(), held);
            Failure failure = Failures.classify(e, "s3://priming/data");
            assertEquals(ErrorKind.TIME_BUDGET, failure.kind());
            assertEquals("s3://priming/data: the invocation's time budget ran out before S3 HeadObject.",
                    failure.message());
        }
    }

    @Test
    void aCallUnderADeadlineFartherThanTheClientsTimeoutKeepsTheClientsTimeout() {
        // given a deadline a minute away, far beyond the client's own 3 s
        try (IngesterClients clients = silentClients();
             Ingester ingester = Ingester.forAws(config(), clients).telemetry(lines.telemetry(clock)).clock(clock)
                     .build()) {
            SQSBatchResponse response = ingester.handle(List.of(upload("m", 1)),
                    Deadline.after(clock, Duration.ofSeconds(55), Duration.ofSeconds(60)), null);

            // then the HEAD went out with the client's timeout, which failed it as a network failure
            assertEquals(Optional.empty(), given.get("HeadObject"));
            assertEquals(List.of("m"), retried(response));
            assertTrue(lines.lines.stream().anyMatch(l -> l.contains("\"error_kind\":\"Network\"")),
                    String.join("\n", lines.lines));
        }
    }
}
