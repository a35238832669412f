package datalake.ingester;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * A queue message body is anything anyone with SendMessage (or a misconfigured notification) put on the
 * queue: it must parse into objects to ingest, or fail with {@link NotificationException} of a permanent
 * kind (dead-lettered, never retried). Any other exception would be classified Unexpected (transient),
 * and the message would loop until the redrive policy takes it.
 */
class NotificationParserFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void onlyPermanentNotificationErrorsComeOut(byte[] input) {
        String body = new String(input, StandardCharsets.UTF_8);
        Notification notification;
        try {
            notification = NotificationParser.parse(body);
        } catch (NotificationException e) {
            assertTrue(e.kind().permanent(), e.kind().label());
            assertTrue(e.getMessage() != null && e.getMessage().endsWith("."), e.getMessage());
            return;
        }
        for (ObjectEvent event : notification.events()) {
            assertNotNull(event.bucket(), body);
            assertNotNull(event.key(), body);
            assertTrue(!event.bucket().isEmpty() && !event.key().isEmpty(), body);
        }
    }
}
