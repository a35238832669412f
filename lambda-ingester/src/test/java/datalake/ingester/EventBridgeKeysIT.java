package datalake.ingester;

import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Keys with {@code +}, {@code %}, spaces and colons arriving through EventBridge ({@code Object Created}
 * and {@code Object Deleted}, the shape of events/ingester/eventbridge/) are read, not dead-lettered as
 * NoSuchKey, against moto and dynalite: as AWS's samples send them (the key as it is), and, should
 * a sender form-encode them as S3 notifications do, through the decoded reading.
 */
@ExtendWith(EmulatorsExtension.class)
class EventBridgeKeysIT {
    private static final Emulators AWS = Emulators.shared();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> KEYS = List.of("a+b.log", "100% done.log", "with space.log",
            "2024-05-14 09:31:04/c++ notes+v2 (final).log", "odd %41%zz+.log");

    private static String eventBridge(String type, String bucket, String key) {
        try {
            ObjectNode event = (ObjectNode) JSON.readTree(TestFiles.event("eventbridge/object-created.json"));
            event.put("detail-type", type);
            ObjectNode detail = (ObjectNode) event.get("detail");
            ((ObjectNode) detail.get("bucket")).put("name", bucket);
            ((ObjectNode) detail.get("object")).put("key", key);
            detail.put("reason", type.equals("Object Created") ? "PutObject" : "DeleteObject");
            return JSON.writeValueAsString(event);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Set<String> urls(IngesterHarness s) {
        Set<String> urls = new TreeSet<>();
        s.records().forEach(r -> urls.add(r.url()));
        return urls;
    }

    private static Set<String> urlsOf(IngesterHarness s, List<String> keys) {
        Set<String> urls = new TreeSet<>();
        keys.forEach(k -> urls.add(s.url(k)));
        return urls;
    }

    @Test
    void keysAsEventBridgeSendsThemAreIndexedAndRemoved() {
        try (IngesterHarness s = IngesterHarness.create(AWS, "eventbridge-keys")) {
            // given objects with awkward keys, their S3 notifications drained, and the EventBridge events AWS sends
            for (int i = 0; i < KEYS.size(); i++) {
                s.put(KEYS.get(i), metadata("eb" + i, START + i, null));
            }
            s.receive(KEYS.size()).forEach(m -> s.backend.sqs().deleteMessage(
                    r -> r.queueUrl(s.stack.ingestQueueUrl()).receiptHandle(m.receiptHandle())));
            KEYS.forEach(k -> s.send(eventBridge("Object Created", s.bucket(), k)));

            // when
            assertEquals(Set.of(), s.handle(s.receive(KEYS.size())));

            // then every one is indexed under its real key, none dead-lettered
            assertEquals(urlsOf(s, KEYS), urls(s));
            s.assertEmpty(s.stack.deadLetterQueueUrl());
            s.reports(KEYS.size());

            // and deleting them, through EventBridge's Object Deleted, removes them all
            KEYS.forEach(k -> s.backend.s3().deleteObject(r -> r.bucket(s.bucket()).key(k)));
            s.receive(KEYS.size()).forEach(m -> s.backend.sqs().deleteMessage(
                    r -> r.queueUrl(s.stack.ingestQueueUrl()).receiptHandle(m.receiptHandle())));
            KEYS.forEach(k -> s.send(eventBridge("Object Deleted", s.bucket(), k)));
            assertEquals(Set.of(), s.handle(s.receive(KEYS.size())));
            assertEquals(Set.of(), urls(s));
        }
    }

    @Test
    void aFormEncodedKeyIsReadThroughItsDecodedReading() {
        try (IngesterHarness s = IngesterHarness.create(AWS, "eventbridge-encoded")) {
            List<String> keys = List.of("with space.log", "c++ notes.log", "100% done.log");
            for (int i = 0; i < keys.size(); i++) {
                s.put(keys.get(i), metadata("enc" + i, START + i, null));
            }
            s.receive(keys.size()).forEach(m -> s.backend.sqs().deleteMessage(
                    r -> r.queueUrl(s.stack.ingestQueueUrl()).receiptHandle(m.receiptHandle())));
            keys.forEach(k -> s.send(eventBridge("Object Created", s.bucket(),
                    URLEncoder.encode(k, StandardCharsets.UTF_8))));

            assertEquals(Set.of(), s.handle(s.receive(keys.size())));

            assertEquals(urlsOf(s, keys), urls(s));
            s.assertEmpty(s.stack.deadLetterQueueUrl());
        }
    }

    @Test
    void aKeyThatExistsAsSentIsNeverTakenForItsDecodedReading() {
        try (IngesterHarness s = IngesterHarness.create(AWS, "eventbridge-both")) {
            // given "a+b.log" and "a b.log", both indexed
            s.put("a+b.log", metadata("plus", START, null));
            s.put("a b.log", metadata("space", START + 1, null));
            assertEquals(Set.of(), s.handle(s.receive(2)));

            // when "a+b.log" is deleted and EventBridge says so
            s.backend.s3().deleteObject(r -> r.bucket(s.bucket()).key("a+b.log"));
            s.receive(1).forEach(m -> s.backend.sqs().deleteMessage(
                    r -> r.queueUrl(s.stack.ingestQueueUrl()).receiptHandle(m.receiptHandle())));
            s.send(eventBridge("Object Deleted", s.bucket(), "a+b.log"));
            assertEquals(Set.of(), s.handle(s.receive(1)));

            // then "a+b.log" left the index, "a b.log" stays
            assertEquals(Set.of(s.url("a b.log")), urls(s));
        }
    }
}
