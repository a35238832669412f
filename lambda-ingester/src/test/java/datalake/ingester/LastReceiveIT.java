package datalake.ingester;

import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.ingester.IngesterHarness.ReceivedReport;
import datalake.records.StatusReport;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Every message that leaves gets a report: against moto's SQS, whose redrive moves a message after
 * maxReceiveCount receives with neither a reason nor a report, the ingester dead-letters a message
 * failing transiently on its last receive itself. The queue's maxReceiveCount reaches the function as
 * DATALAKE_MAX_RECEIVE_COUNT, as template.yaml passes its one parameter to both.
 */
@ExtendWith(EmulatorsExtension.class)
class LastReceiveIT {
    private static final Emulators AWS = Emulators.shared();

    @Test
    void aMessageFailingOnItsLastReceiveIsDeadLetteredWithItsReasonAndReported() {
        // given a queue that allows two receives, and S3 unreachable for HeadObject
        try (IngesterHarness s = IngesterHarness.create(AWS, "last-receive",
                StackSetup.defaults().withMaxReceiveCount(2))) {
            FaultInjector faults = new FaultInjector();
            S3Client s3 = s.ingesterAws.s3Clients().build(S3Client.builder().forcePathStyle(true),
                    o -> o.addExecutionInterceptor(faults).retryStrategy(RetryMode.STANDARD));
            IngesterConfig config = s.config();
            assertEquals(Integer.valueOf(2), config.maxReceiveCount());
            Ingester ingester = Ingester.forAws(config, new IngesterClients(s3, s.ingesterAws.dynamoDb(), s.ingesterAws.sns(),
                            s.ingesterAws.sqs()))
                    .telemetry(new Telemetry(s.logLines::add, Clock.systemUTC())).build();
            IngesterHandler handler = new IngesterHandler(ingester);
            s.put("unlucky.log", metadata("unlucky", START, null));
            faults.fail("HeadObject");

            // when the first receive fails: it goes back, unreported
            Message first = s.receive(1).get(0);
            assertEquals(Set.of(first.messageId()), s.handle(handler, List.of(first)));
            s.assertEmpty(s.stack.deadLetterQueueUrl());

            // and the second (the last) fails too
            s.expireVisibility(List.of(first));
            Message second = s.receive(1).get(0);
            assertEquals("2", second.attributesAsStrings().get("ApproximateReceiveCount"));
            Set<String> retried = s.handle(handler, List.of(second));

            // then it is acknowledged, in the DLQ with its reason, and an error report says why
            assertEquals(Set.of(), retried);
            Message letter = s.deadLetters(1).get(0);
            assertEquals(first.body(), letter.body());
            assertEquals("Network", letter.messageAttributes().get("error_kind").stringValue());
            assertTrue(letter.messageAttributes().get("error_message").stringValue().contains("2 times"));
            ReceivedReport report = s.reports(1).get(0);
            assertEquals(StatusReport.Status.ERROR, report.report().status());
            assertEquals("index", report.action());
            s.assertEmpty(s.stack.ingestQueueUrl());
            ingester.close();
            s3.close();
        }
    }
}
