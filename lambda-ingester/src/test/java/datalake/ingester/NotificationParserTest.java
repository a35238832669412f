package datalake.ingester;

import static datalake.ingester.TestFiles.event;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class NotificationParserTest {

    @Test
    void aDirectS3PutEventNamesItsObject() {
        // given the body S3 sends straight to the queue
        String body = event("s3/put.json");

        // when
        Notification notification = NotificationParser.parse(body);

        // then
        assertFalse(notification.testEvent());
        assertEquals(List.of(new ObjectEvent("datalake-example", "2024/05/14/sensor-1.csv", "ObjectCreated:Put",
                "0055AED6DCD90281E5")), notification.events());
    }

    @ParameterizedTest
    @CsvSource({
        "s3/post.json, ObjectCreated:Post, uploads/form.bin",
        "s3/copy.json, ObjectCreated:Copy, copies/sensor-1.csv",
        "s3/complete-multipart-upload.json, ObjectCreated:CompleteMultipartUpload, big/run-42.tar",
    })
    void everyObjectCreatedEventIngests(String fixture, String eventName, String key) {
        Notification notification = NotificationParser.parse(event(fixture));

        assertEquals(1, notification.events().size());
        assertEquals(eventName, notification.events().get(0).eventName());
        assertEquals(key, notification.events().get(0).key());
    }

    @Test
    void anSnsEnvelopeIsUnwrapped() {
        // given S3 -> SNS -> SQS without raw delivery: the S3 event is the envelope's Message string
        String body = event("sns/envelope-put.json");

        // when
        Notification notification = NotificationParser.parse(body);

        // then it reads exactly as the direct event does
        assertEquals(NotificationParser.parse(event("s3/put.json")), notification);
    }

    @Test
    void rawSnsDeliveryIsTheBareS3Event() {
        // raw message delivery hands SQS the Message itself: the direct shape, nothing to unwrap
        assertEquals(1, NotificationParser.parse(event("s3/put.json")).events().size());
    }

    @Test
    void anEventBridgeObjectCreatedEventNamesItsObjectByTheKeyAsSentAndItsDecodedReading() {
        Notification notification = NotificationParser.parse(event("eventbridge/object-created.json"));

        assertEquals(List.of(new ObjectEvent("datalake-example", "2024/05/14/sensor+2.csv", "Object Created:PutObject",
                "617f08299329d189", "2024/05/14/sensor 2.csv")), notification.events());
    }

    @Test
    void anEventBridgeKeyIsReadAsSentWithSpacesColonsPlusSignsAndPercentSigns() {
        // EventBridge does not form-encode keys: ':' and ' ' come as they are; '+' and '%' too
        ObjectEvent event = NotificationParser.parse(event("eventbridge/object-created-special-key.json")).events().get(0);

        assertEquals("2024/05/14 09:31:04/sensor a+b 100%.csv", event.key());
        // "100%.c" is no valid escape, so there is no other reading to try
        assertNull(event.alternateKey());
    }

    @Test
    void theS3TestEventIsASuccessWithoutObjects() {
        Notification direct = NotificationParser.parse(event("s3/test-event.json"));
        Notification throughSns = NotificationParser.parse(event("sns/envelope-test-event.json"));

        assertTrue(direct.testEvent());
        assertTrue(direct.events().isEmpty());
        assertEquals(direct, throughSns);
    }

    @Test
    void everyRecordOfAnEventIsRead() {
        Notification notification = NotificationParser.parse(event("s3/two-records.json"));

        assertEquals(List.of("a/one.csv", "a/two.csv"), notification.events().stream().map(ObjectEvent::key).toList());
    }

    @Test
    void keysAreFormUrlDecoded() {
        Notification notification = NotificationParser.parse(event("s3/encoded-key.json"));

        assertEquals("reports/café menu + prices: 2024–05.txt", notification.events().get(0).key());
        assertEquals("s3://datalake-example/reports/café menu + prices: 2024–05.txt", notification.events().get(0).url());
    }

    @Test
    void aMissingSequencerIsNull() {
        // moto omits the sequencer; message order then decides between duplicates
        Notification notification = NotificationParser.parse(event("s3/no-sequencer.json"));

        assertNull(notification.events().get(0).sequencer());
        assertEquals("moto/file 1.csv", notification.events().get(0).key());
    }

    @Test
    void s3PrefixedEventNamesAreAccepted() {
        String body = TestFiles.s3Event("s3:ObjectCreated:Put", "b", "k", null);

        assertEquals("ObjectCreated:Put", NotificationParser.parse(body).events().get(0).eventName());
    }

    @ParameterizedTest
    @CsvSource({
        "s3/delete.json, ObjectRemoved:Delete",
        "s3/delete-marker-created.json, ObjectRemoved:DeleteMarkerCreated",
        "s3/lifecycle-expiration-delete.json, LifecycleExpiration:Delete",
        "s3/lifecycle-expiration-delete-marker.json, LifecycleExpiration:DeleteMarkerCreated",
        "eventbridge/object-deleted.json, Object Deleted:DeleteObject",
        "eventbridge/object-deleted-lifecycle.json, Object Deleted:Lifecycle Expiration",
    })
    void removalsAreReadAsRemovalsOfTheirObject(String fixture, String name) {
        ObjectEvent event = NotificationParser.parse(event(fixture)).events().get(0);

        assertEquals(name, event.eventName());
        assertTrue(event.removal());
        assertEquals("2024/05/14/sensor-" + (fixture.equals("eventbridge/object-deleted.json") ? "2" : "1") + ".csv",
                event.key());
    }

    @ParameterizedTest
    @CsvSource({
        "s3/restore-post.json, ObjectRestore:Post",
        "eventbridge/object-restore-initiated.json, Object Restore Initiated",
    })
    void otherEventsAreUnsupportedS3Events(String fixture, String name) {
        NotificationException e = assertThrows(NotificationException.class, () -> NotificationParser.parse(event(fixture)));

        assertEquals(ErrorKind.UNSUPPORTED_S3_EVENT, e.kind());
        assertTrue(e.getMessage().contains(name), e.getMessage());
    }

    @Test
    void eventVersionsOtherThanTwoAreBadNotifications() {
        NotificationException e = assertThrows(NotificationException.class,
                () -> NotificationParser.parse(event("s3/event-version-1.json")));

        assertEquals(ErrorKind.BAD_NOTIFICATION, e.kind());
        assertTrue(e.getMessage().contains("eventVersion"), e.getMessage());
    }

    @Test
    void anSnsSubscriptionConfirmationIsABadNotification() {
        NotificationException e = assertThrows(NotificationException.class,
                () -> NotificationParser.parse(event("sns/subscription-confirmation.json")));

        assertEquals(ErrorKind.BAD_NOTIFICATION, e.kind());
        assertTrue(e.getMessage().contains("SubscriptionConfirmation"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"not json", "{\"Records\":[", "{\"a\":1}}}x"})
    void textThatIsNotJsonIsBadJson(String body) {
        NotificationException e = assertThrows(NotificationException.class, () -> NotificationParser.parse(body));

        assertEquals(ErrorKind.BAD_JSON, e.kind());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "[]",
        "42",
        "{}",
        "{\"Records\":[]}",
        "{\"Records\":{}}",
        "{\"Event\":\"s3:ObjectCreated:Put\"}",
        "{\"Type\":\"Notification\",\"Message\":{\"Records\":[]}}",
        "{\"Type\":\"Notification\",\"Message\":\"{\\\"Type\\\":\\\"Notification\\\",\\\"Message\\\":\\\"{}\\\"}\"}",
        "{\"source\":\"aws.ec2\",\"detail-type\":\"Object Created\",\"detail\":{}}",
        "{\"source\":\"aws.s3\",\"detail-type\":\"Object Created\",\"detail\":{\"bucket\":{\"name\":\"b\"}}}",
        "{\"Records\":[{\"eventVersion\":\"2.1\",\"eventSource\":\"aws:sqs\",\"eventName\":\"ObjectCreated:Put\"}]}",
        "{\"Records\":[{\"eventVersion\":\"2.1\",\"eventName\":\"ObjectCreated:Put\",\"s3\":{\"bucket\":{\"name\":\"b\"},\"object\":{}}}]}",
        "{\"Records\":[{\"eventVersion\":\"2.1\",\"eventName\":\"ObjectCreated:Put\",\"s3\":{\"bucket\":{},\"object\":{\"key\":\"k\"}}}]}",
        "{\"Records\":[{\"eventVersion\":\"2.1\",\"eventName\":\"ObjectCreated:Put\",\"s3\":{\"bucket\":{\"name\":\"b\"},\"object\":{\"key\":\"bad%zz\"}}}]}",
    })
    void malformedNotificationsArePermanentBadNotifications(String body) {
        NotificationException e = assertThrows(NotificationException.class, () -> NotificationParser.parse(body));

        assertEquals(ErrorKind.BAD_NOTIFICATION, e.kind(), e.getMessage());
        assertTrue(e.kind().permanent());
        assertTrue(e.getMessage().endsWith("."), e.getMessage());
    }

    @Test
    void aSequencerThatIsNotHexIsIgnored() {
        String body = TestFiles.s3Event("ObjectCreated:Put", "b", "k", "not-hex");

        assertNull(NotificationParser.parse(body).events().get(0).sequencer());
    }
}
