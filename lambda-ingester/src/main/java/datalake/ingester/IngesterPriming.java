package datalake.ingester;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import datalake.lambda.CannedHttpClient.Answer;
import datalake.lambda.Priming;
import datalake.lambda.SdkClientFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * The ingester's SnapStart priming: one batch (a raw S3 event, the same in an SNS envelope, and a
 * message that is not JSON) through the ingester the handler builds ({@link Ingester#forAws}), so
 * that the snapshot holds parsing, validation, the records, the SDK's GetItem (the shard map, found
 * absent), HeadObject, UpdateItem (the per-object commit), BatchWriteItem, PutItem, BatchGetItem (the
 * commit's check), PublishBatch and
 * SendMessageBatch, the reports and the dead letters, loaded and warmed.
 * Its logs and metrics are written and discarded: priming must not count as traffic. Public for the
 * cold-start benchmark, which runs it where no snapshot is taken.
 */
public final class IngesterPriming {
    static final String RAW_S3_EVENT = "{\"Records\":[{\"eventVersion\":\"2.1\",\"eventSource\":\"aws:s3\","
            + "\"awsRegion\":\"us-east-1\",\"eventTime\":\"2015-03-19T23:45:20.345Z\",\"eventName\":\"ObjectCreated:Put\","
            + "\"s3\":{\"s3SchemaVersion\":\"1.0\",\"bucket\":{\"name\":\"priming\",\"arn\":\"arn:aws:s3:::priming\"},"
            + "\"object\":{\"key\":\"priming/data+1\",\"size\":7,\"sequencer\":\"0055AED6DCD90281E5\"}}}]}";
    /** The answer of each call the batch makes. */
    static final List<Answer> ANSWERS = List.of(
            Priming.headOfTheFile(),
            Answer.body("GetItem", "{}"),
            Answer.body("UpdateItem", "{}"),
            Answer.body("BatchWriteItem", "{\"UnprocessedItems\":{}}"),
            // The commit's read-back finds no entry: the check's path runs, the message goes back (no traffic).
            Answer.body("BatchGetItem", "{\"Responses\":{}}"),
            Answer.body("PutItem", "{}"),
            Answer.body("SendMessageBatch", "{\"Successful\":[],\"Failed\":[]}"),
            // SNS speaks the query protocol: an XML answer.
            Answer.body("PublishBatch", "<PublishBatchResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\">"
                    + "<PublishBatchResult><Successful/><Failed/></PublishBatchResult><ResponseMetadata>"
                    + "<RequestId>priming</RequestId></ResponseMetadata></PublishBatchResponse>"));

    private IngesterPriming() {
    }

    public static Priming of(IngesterConfig config) {
        return new Priming(ANSWERS, factory -> run(config, factory));
    }

    private static void run(IngesterConfig config, SdkClientFactory factory) {
        Clock clock = Clock.systemUTC();
        try (IngesterClients clients = IngesterClients.from(factory, config);
             Ingester ingester = Ingester.forAws(config, clients).telemetry(Telemetry.discarding()).build()) {
            ingester.handle(List.of(
                    message("priming-0", RAW_S3_EVENT),
                    message("priming-1", snsEnvelope(RAW_S3_EVENT)),
                    message("priming-2", "not JSON")), Deadline.after(clock, Duration.ofSeconds(10)), "priming");
        }
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
