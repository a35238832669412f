package datalake.ingester;

import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import datalake.dynamodb.RecordItems;
import datalake.records.Metadata;
import datalake.records.MetadataParser;
import datalake.records.RecordFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Fixtures: event bodies from src/test/resources/events, metadata documents, SQS messages. */
final class TestFiles {
    static final String BUCKET = "datalake-example";
    static final String HASH = "a3e75ee4f45f676422e038f2c116d000";
    /** 2015-03-20T00:05:20.345Z: the syslog example of the datalake-common spec. */
    static final long START = 1_426_809_920_345L;
    static final long DAY = 86_400_000L;

    private TestFiles() {
    }

    /** A resource under events/, e.g. {@code "s3/put.json"}. */
    static String event(String path) {
        try (InputStream in = TestFiles.class.getResourceAsStream("/events/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource events/" + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Metadata JSON as the datalake client writes it into x-amz-meta-datalake. */
    static String metadata(String what, String where, String id, long start, Long end, String workId) {
        return "{\"version\":0,\"start\":" + start + ",\"end\":" + end + ",\"path\":\"/var/log/" + id
                + ".log\",\"work_id\":" + (workId == null ? "null" : "\"" + workId + "\"")
                + ",\"where\":\"" + where + "\",\"what\":\"" + what + "\",\"id\":\"" + id + "\",\"hash\":\"" + HASH + "\"}";
    }

    static String metadata(String id, long start, Long end) {
        return metadata("syslog", "webserver02", id, start, end, null);
    }

    /** A records-table item of the Python datalake's first format: ours without create_time and size. */
    static Map<String, AttributeValue> firstFormatItem(String metadata) {
        Metadata parsed = MetadataParser.parse(metadata);
        Map<String, AttributeValue> item = new HashMap<>(RecordItems.toItem(new RecordFactory()
                .records(parsed, "s3://" + BUCKET + "/" + parsed.id() + "/data", 1L, 1).get(0)));
        item.remove(RecordItems.CREATE_TIME);
        item.remove(RecordItems.SIZE);
        return item;
    }

    static SQSMessage message(String id, String body) {
        SQSMessage message = new SQSMessage();
        message.setMessageId(id);
        message.setBody(body);
        message.setReceiptHandle("handle-" + id);
        message.setEventSource("aws:sqs");
        message.setEventSourceArn("arn:aws:sqs:us-east-1:123456789012:datalake-ingest");
        message.setAwsRegion("us-east-1");
        message.setAttributes(Map.of("ApproximateReceiveCount", "1"));
        return message;
    }

    /** A direct S3 notification body for one object (key given encoded, as S3 sends it). */
    static String s3Event(String eventName, String bucket, String encodedKey, String sequencer) {
        return "{\"Records\":[{\"eventVersion\":\"2.1\",\"eventSource\":\"aws:s3\",\"awsRegion\":\"us-east-1\","
                + "\"eventTime\":\"2024-05-14T09:31:04.118Z\",\"eventName\":\"" + eventName + "\","
                + "\"s3\":{\"s3SchemaVersion\":\"1.0\",\"bucket\":{\"name\":\"" + bucket + "\"},"
                + "\"object\":{\"key\":\"" + encodedKey + "\",\"size\":1024"
                + (sequencer == null ? "" : ",\"sequencer\":\"" + sequencer + "\"") + "}}}]}";
    }

    static String put(String encodedKey, String sequencer) {
        return s3Event("ObjectCreated:Put", BUCKET, encodedKey, sequencer);
    }

    /** An SNS envelope (not raw delivery) around a message. */
    static String sns(String message) {
        return "{\"Type\":\"Notification\",\"MessageId\":\"b0ac1a70-3c5e-5d79-9c64-4d8e3a7f2b11\","
                + "\"TopicArn\":\"arn:aws:sns:us-east-1:123456789012:datalake-uploads\","
                + "\"Subject\":\"Amazon S3 Notification\",\"Message\":" + jsonString(message) + ","
                + "\"Timestamp\":\"2024-05-14T09:31:04.501Z\",\"SignatureVersion\":\"1\",\"Signature\":\"EXAMPLE==\"}";
    }

    static String jsonString(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                default -> out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
