package datalake.ingester;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import datalake.records.RecordFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * SnapStart priming: before the snapshot, one batch goes through a complete ingester built on
 * {@link SdkClients#priming} (a raw S3 event, the same in an SNS envelope, and a message that is not
 * JSON), so the snapshot holds the classes, and the warmed code, of parsing, validation, the records,
 * the SDK's marshalling, signing and unmarshalling, the reports and the dead letters. Nothing is sent:
 * the priming clients answer from {@link PrimingHttpClient}, with dummy credentials, and their logs
 * and metrics go nowhere. Best effort: a failure is logged and the snapshot is taken anyway.
 */
final class Priming {
    static final String RAW_S3_EVENT = "{\"Records\":[{\"eventVersion\":\"2.1\",\"eventSource\":\"aws:s3\","
            + "\"awsRegion\":\"us-east-1\",\"eventTime\":\"2015-03-19T23:45:20.345Z\",\"eventName\":\"ObjectCreated:Put\","
            + "\"s3\":{\"s3SchemaVersion\":\"1.0\",\"bucket\":{\"name\":\"priming\",\"arn\":\"arn:aws:s3:::priming\"},"
            + "\"object\":{\"key\":\"priming/data+1\",\"size\":7,\"sequencer\":\"0055AED6DCD90281E5\"}}}]}";

    private final IngesterConfig config;

    Priming(IngesterConfig config) {
        this.config = config;
    }

    /** Runs the priming batch; returns how many HTTP calls the priming clients answered. */
    int prime() {
        PrimingHttpClient http = new PrimingHttpClient();
        SdkClients clients = SdkClients.priming(config, http);
        Clock clock = Clock.systemUTC();
        try (Ingester ingester = new Ingester(
                new RecordFactory(config.maxBucketSpan(), config.retentionDays()),
                new S3ObjectStore(clients.s3()),
                new DynamoDbRecordStore(clients.dynamoDb(), config.recordsTable(), config.latestTable(),
                        new Backoff(Backoff.DEFAULT_BASE, Backoff.DEFAULT_CAP, Sleeper.SYSTEM, new Random(0))),
                config.reportTopicArn() == null ? ReportPublisher.NONE
                        : new SnsReportPublisher(clients.sns(), config.reportTopicArn()),
                new SqsDeadLetterQueue(clients.sqs(), config.deadLetterUrl()),
                new Telemetry(line -> { }, clock),
                clock,
                config.functionName(),
                2)) {
            ingester.handle(List.of(
                    message("priming-0", RAW_S3_EVENT),
                    message("priming-1", snsEnvelope(RAW_S3_EVENT)),
                    message("priming-2", "not JSON")), Deadline.after(clock, Duration.ofSeconds(10)), "priming");
        } finally {
            clients.close();
        }
        return http.calls();
    }

    private static SQSEvent.SQSMessage message(String id, String body) {
        SQSEvent.SQSMessage message = new SQSEvent.SQSMessage();
        message.setMessageId(id);
        message.setBody(body);
        message.setEventSource("aws:sqs");
        return message;
    }

    private static String snsEnvelope(String event) {
        return "{\"Type\":\"Notification\",\"MessageId\":\"priming\",\"TopicArn\":\"arn:aws:sns:us-east-1:000000000000:priming\","
                + "\"Subject\":\"Amazon S3 Notification\",\"Message\":\"" + event.replace("\"", "\\\"") + "\","
                + "\"Timestamp\":\"2015-03-19T23:45:20.345Z\"}";
    }
}
