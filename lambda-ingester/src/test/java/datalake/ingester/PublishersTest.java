package datalake.ingester;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.records.DatalakeJson;
import datalake.records.StatusReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.PublishBatchRequest;
import software.amazon.awssdk.services.sns.model.PublishBatchResponse;
import software.amazon.awssdk.services.sns.model.SnsException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;

/** The SNS report publisher and the SQS dead-letter queue, on fake clients. */
class PublishersTest {
    private static final String TOPIC = "arn:aws:sns:us-east-1:123456789012:datalake-reports";
    private static final String DLQ = "https://sqs.us-east-1.amazonaws.com/123456789012/datalake-ingest-dlq";

    private static List<Report> reports(int n) {
        List<Report> reports = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            reports.add(new Report("m" + i, i % 2 == 0 ? StatusReport.success(1000L, 0.25, List.of())
                    : StatusReport.error(1000L, 0.25, List.of(), "the message body is not valid JSON."),
                    i % 2 == 0 ? "syslog" : null));
        }
        return reports;
    }

    @Test
    void reportsArePublishedTenACallWithStatusAndWhatAttributes() {
        FakeSns sns = new FakeSns();

        Map<String, String> failed = new SnsReportPublisher(sns, TOPIC).publish(reports(23));

        assertTrue(failed.isEmpty());
        assertEquals(List.of(10, 10, 3), sns.calls.stream().map(c -> c.publishBatchRequestEntries().size()).toList());
        var first = sns.calls.get(0).publishBatchRequestEntries().get(0);
        assertEquals(TOPIC, sns.calls.get(0).topicArn());
        assertEquals("success", first.messageAttributes().get("status").stringValue());
        assertEquals("syslog", first.messageAttributes().get("what").stringValue());
        assertEquals(StatusReport.Status.SUCCESS, DatalakeJson.parseReport(first.message()).status());
        var second = sns.calls.get(0).publishBatchRequestEntries().get(1);
        assertEquals("error", second.messageAttributes().get("status").stringValue());
        assertTrue(!second.messageAttributes().containsKey("what"));
    }

    @Test
    void refusedEntriesAndFailedCallsAreReturnedNotThrown() {
        FakeSns sns = new FakeSns();
        sns.refuse = Set.of("1");
        sns.throwOnCall = 2;

        Map<String, String> failed = new SnsReportPublisher(sns, TOPIC).publish(reports(12));

        // entry 1 of the first call was refused; the whole second call (m10, m11) failed
        assertEquals(Set.of("m1", "m10", "m11"), failed.keySet());
        assertTrue(failed.get("m1").contains("InternalError"), failed.get("m1"));
    }

    @Test
    void deadLettersKeepTheBodyAndCarryTheReason() {
        FakeSqs sqs = new FakeSqs();
        DeadLetter letter = new DeadLetter("m1", "{not json", new Failure(ErrorKind.BAD_JSON, "the message body is not valid JSON."));

        Map<String, String> failed = new SqsDeadLetterQueue(sqs, DLQ).send(List.of(letter));

        assertTrue(failed.isEmpty());
        var entry = sqs.calls.get(0).entries().get(0);
        assertEquals(DLQ, sqs.calls.get(0).queueUrl());
        assertEquals("{not json", entry.messageBody());
        assertEquals("BadJson", entry.messageAttributes().get("error_kind").stringValue());
        assertEquals("the message body is not valid JSON.", entry.messageAttributes().get("error_message").stringValue());
        assertEquals("m1", entry.messageAttributes().get("source_message_id").stringValue());
    }

    @Test
    void bigBodiesAreSplitSoThatNoCallExceedsSqsSizeLimit() {
        // given four bodies of 100 KB: at most two fit under 256 KiB
        FakeSqs sqs = new FakeSqs();
        List<DeadLetter> letters = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            letters.add(new DeadLetter("m" + i, "x".repeat(100_000), new Failure(ErrorKind.BAD_JSON, "bad.")));
        }

        new SqsDeadLetterQueue(sqs, DLQ).send(letters);

        assertEquals(List.of(2, 2), sqs.calls.stream().map(c -> c.entries().size()).toList());
    }

    @Test
    void lettersThatCannotBeSentAreReturned() {
        FakeSqs sqs = new FakeSqs();
        sqs.refuse = Set.of("0");

        Map<String, String> failed = new SqsDeadLetterQueue(sqs, DLQ).send(List.of(
                new DeadLetter("m1", "a", new Failure(ErrorKind.BAD_JSON, "bad.")),
                new DeadLetter("m2", "b", new Failure(ErrorKind.BAD_JSON, "bad."))));

        assertEquals(Set.of("m1"), failed.keySet());
    }

    static final class FakeSns implements SnsClient {
        final List<PublishBatchRequest> calls = new ArrayList<>();
        Set<String> refuse = Set.of();
        int throwOnCall = -1;

        @Override
        public PublishBatchResponse publishBatch(PublishBatchRequest request) {
            calls.add(request);
            if (calls.size() == throwOnCall) {
                throw SnsException.builder().statusCode(500)
                        .awsErrorDetails(AwsErrorDetails.builder().serviceName("Sns").errorCode("InternalError").build()).build();
            }
            List<software.amazon.awssdk.services.sns.model.BatchResultErrorEntry> failed = new ArrayList<>();
            for (var entry : request.publishBatchRequestEntries()) {
                if (refuse.contains(entry.id())) {
                    failed.add(software.amazon.awssdk.services.sns.model.BatchResultErrorEntry.builder().id(entry.id())
                            .code("InternalError").senderFault(false).build());
                }
            }
            return PublishBatchResponse.builder().failed(failed).build();
        }

        @Override
        public String serviceName() {
            return "sns";
        }

        @Override
        public void close() {
        }
    }

    static final class FakeSqs implements SqsClient {
        final List<SendMessageBatchRequest> calls = new ArrayList<>();
        Set<String> refuse = Set.of();

        @Override
        public SendMessageBatchResponse sendMessageBatch(SendMessageBatchRequest request) {
            calls.add(request);
            List<BatchResultErrorEntry> failed = new ArrayList<>();
            for (var entry : request.entries()) {
                if (refuse.contains(entry.id())) {
                    failed.add(BatchResultErrorEntry.builder().id(entry.id()).code("InternalError").senderFault(false).build());
                }
            }
            return SendMessageBatchResponse.builder().failed(failed).build();
        }

        @Override
        public String serviceName() {
            return "sqs";
        }

        @Override
        public void close() {
        }
    }
}
