package datalake.ingester;

import java.util.List;

/**
 * What one queue message asks the ingester to do: index these objects, or nothing at all for
 * S3's {@code s3:TestEvent} (sent when a bucket notification is configured).
 */
record Notification(List<ObjectEvent> events, boolean testEvent) {
    static final Notification TEST_EVENT = new Notification(List.of(), true);

    public Notification {
        events = List.copyOf(events);
    }

    static Notification of(List<ObjectEvent> events) {
        return new Notification(events, false);
    }
}
