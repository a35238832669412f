package datalake.ingester;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a queue message body, in every shape of docs/DESIGN.md ("Messages"): an S3 event ({@code {"Records":[...]}}),
 * an SNS envelope whose {@code Message} is one (raw delivery is the bare S3 event), an EventBridge
 * event from {@code aws.s3}, or an {@code s3:TestEvent}. Fails with {@link NotificationException}:
 * every failure here is permanent, since the same body never parses differently.
 */
final class NotificationParser {
    /** The S3 event names that create an object. */
    static final Set<String> OBJECT_CREATED = Set.of("ObjectCreated:Put", "ObjectCreated:Post",
            "ObjectCreated:Copy", "ObjectCreated:CompleteMultipartUpload");
    /** The S3 event names that remove an object (or hide it behind a delete marker). */
    static final Set<String> OBJECT_REMOVED = Set.of("ObjectRemoved:Delete", "ObjectRemoved:DeleteMarkerCreated",
            "LifecycleExpiration:Delete", "LifecycleExpiration:DeleteMarkerCreated");
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** What is read of a body: the fields that tell its shape apart and name the objects. */
    private static final JsonProjection NOTIFICATION = JsonProjection.of(Map.of(
            "Records", JsonProjection.of(Map.of(
                    "eventVersion", JsonProjection.ALL,
                    "eventSource", JsonProjection.ALL,
                    "eventName", JsonProjection.ALL,
                    "s3", JsonProjection.of(Map.of(
                            "bucket", JsonProjection.of(Map.of("name", JsonProjection.ALL)),
                            "object", JsonProjection.of(Map.of(
                                    "key", JsonProjection.ALL,
                                    "sequencer", JsonProjection.ALL)))))),
            "Type", JsonProjection.ALL,
            "Message", JsonProjection.ALL,
            "Event", JsonProjection.ALL,
            "detail-type", JsonProjection.ALL,
            "detail", JsonProjection.ALL,
            "source", JsonProjection.ALL));

    private NotificationParser() {
    }

    static Notification parse(String body) {
        if (body == null || body.isBlank()) {
            throw bad("the message body is empty.");
        }
        return parse(readTree(body), true);
    }

    private static Notification parse(JsonNode node, boolean envelopeAllowed) {
        if (!node.isObject()) {
            throw bad("the message is not a JSON object.");
        }
        if (node.has("Records")) {
            return s3Event(node.get("Records"));
        }
        if (node.has("detail-type") || node.has("detail")) {
            return eventBridge(node);
        }
        JsonNode event = node.get("Event");
        if (event != null) {
            if ("s3:TestEvent".equals(event.asText())) {
                return Notification.TEST_EVENT;
            }
            throw bad("the S3 message's Event is not s3:TestEvent.");
        }
        if (node.has("Type") && node.has("Message")) {
            if (!envelopeAllowed) {
                throw bad("the SNS message wraps another SNS envelope.");
            }
            if (!"Notification".equals(node.get("Type").asText())) {
                throw bad("the SNS message is of Type " + quoted(node.get("Type")) + ", not Notification.");
            }
            JsonNode message = node.get("Message");
            if (!message.isTextual()) {
                throw bad("the SNS envelope's Message is not a string.");
            }
            return parse(readTree(message.textValue()), false);
        }
        throw bad("the message is not an S3 event, an SNS notification, an EventBridge S3 event or an S3 test event.");
    }

    private static Notification s3Event(JsonNode records) {
        if (!records.isArray() || records.isEmpty()) {
            throw bad("the S3 event's Records is not a non-empty array.");
        }
        List<ObjectEvent> events = new ArrayList<>(records.size());
        int index = 0;
        for (JsonNode record : records) {
            index++;
            String where = "S3 event record " + index;
            String version = record.path("eventVersion").asText("");
            if (!version.startsWith("2.")) {
                throw bad(where + " has eventVersion " + quoted(record.get("eventVersion")) + "; only 2.x is understood.");
            }
            JsonNode source = record.get("eventSource");
            if (source != null && !"aws:s3".equals(source.asText())) {
                throw bad(where + " comes from " + quoted(source) + ", not aws:s3.");
            }
            String name = text(record, "eventName", where);
            if (name.startsWith("s3:")) {
                name = name.substring(3);
            }
            if (!OBJECT_CREATED.contains(name) && !OBJECT_REMOVED.contains(name)) {
                throw new NotificationException(ErrorKind.UNSUPPORTED_S3_EVENT, "S3 event " + quoted(record.get("eventName"))
                        + " is not ingested; only ObjectCreated (Put, Post, Copy, CompleteMultipartUpload), ObjectRemoved"
                        + " (Delete, DeleteMarkerCreated) and LifecycleExpiration (Delete, DeleteMarkerCreated) are.");
            }
            JsonNode s3 = record.path("s3");
            events.add(new ObjectEvent(text(s3.path("bucket"), "name", where + " s3.bucket"),
                    key(s3.path("object"), where + " s3.object"), name, sequencer(s3.path("object"))));
        }
        return Notification.of(events);
    }

    private static Notification eventBridge(JsonNode node) {
        String source = node.path("source").asText("");
        if (!"aws.s3".equals(source)) {
            throw bad("the EventBridge event comes from " + quoted(node.get("source")) + ", not aws.s3.");
        }
        String type = node.path("detail-type").asText("");
        if (!"Object Created".equals(type) && !"Object Deleted".equals(type)) {
            throw new NotificationException(ErrorKind.UNSUPPORTED_S3_EVENT, "EventBridge S3 event " + quoted(node.get("detail-type"))
                    + " is not ingested; only Object Created and Object Deleted are.");
        }
        JsonNode detail = node.path("detail");
        String reason = detail.path("reason").asText("");
        // AWS's samples and events show EventBridge keys as they are (a ':' stays a ':'), unlike the
        // form-encoded keys of S3 notifications: the key is read as sent; its decoded reading is only
        // a fallback for an object that does not exist as sent (docs/DESIGN.md, "Messages").
        String key = text(detail.path("object"), "key", "the EventBridge detail.object");
        String decoded = null;
        if (key.indexOf('+') >= 0 || key.indexOf('%') >= 0) {
            try {
                decoded = S3Keys.decode(key);
            } catch (IllegalArgumentException notEncoded) {
                decoded = null;
            }
        }
        ObjectEvent event = new ObjectEvent(text(detail.path("bucket"), "name", "the EventBridge detail.bucket"),
                key, reason.isEmpty() ? type : type + ":" + reason, sequencer(detail.path("object")),
                decoded == null || decoded.equals(key) ? null : decoded);
        return Notification.of(List.of(event));
    }

    private static String key(JsonNode object, String where) {
        String encoded = text(object, "key", where);
        try {
            return S3Keys.decode(encoded);
        } catch (IllegalArgumentException e) {
            throw bad(where + ".key is not a valid URL-encoded key: " + e.getMessage() + ".");
        }
    }

    /** The sequencer when it is hex text; anything else is ignored (order then decides). */
    private static String sequencer(JsonNode object) {
        JsonNode value = object.get("sequencer");
        if (value == null || !value.isTextual() || value.textValue().isEmpty()) {
            return null;
        }
        String text = value.textValue();
        for (int i = 0; i < text.length(); i++) {
            if (Character.digit(text.charAt(i), 16) < 0) {
                return null;
            }
        }
        return text;
    }

    private static String text(JsonNode parent, String field, String where) {
        JsonNode value = parent.get(field);
        if (value == null || !value.isTextual() || value.textValue().isEmpty()) {
            throw bad(where + " has no " + field + ".");
        }
        return value.textValue();
    }

    /** Reads a body (or an SNS envelope's Message) projected on the fields the parser looks at. */
    private static JsonNode readTree(String json) {
        try (JsonParser parser = MAPPER.getFactory().createParser(json)) {
            if (parser.nextToken() == null) {
                throw new NotificationException(ErrorKind.BAD_JSON, "the message body is not valid JSON.");
            }
            JsonNode node = NOTIFICATION.read(parser, MAPPER);
            requireEnd(parser);
            return node;
        } catch (IOException e) {
            throw new NotificationException(ErrorKind.BAD_JSON, "the message body is not valid JSON.");
        }
    }

    private static void requireEnd(JsonParser parser) throws IOException {
        if (parser.nextToken() != null) {
            throw new NotificationException(ErrorKind.BAD_JSON, "the message body is not valid JSON.");
        }
    }

    /** A short quoted rendering of a small field value for error messages (never metadata). */
    private static String quoted(JsonNode value) {
        if (value == null || value.isNull()) {
            return "(none)";
        }
        String text = value.isTextual() ? value.textValue() : value.toString();
        return "'" + (text.length() > 60 ? text.substring(0, 60) + "..." : text) + "'";
    }

    private static NotificationException bad(String message) {
        return new NotificationException(ErrorKind.BAD_NOTIFICATION, message);
    }
}
