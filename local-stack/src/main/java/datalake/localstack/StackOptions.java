package datalake.localstack;

/**
 * How {@link StackResources} wires the stack.
 *
 * @param notificationRoute whether S3 notifies the ingest queue directly or through the upload topic
 * @param rawDelivery with {@link NotificationRoute#TOPIC}: whether SNS delivers the bare S3 event
 *     (true) or wraps it in an SNS envelope (false)
 * @param maxReceiveCount receives of one message before SQS moves it to the dead-letter queue
 * @param reportInspection whether the report-inspection queue is subscribed to the report topic (tests
 *     read reports there); without a reader it only grows, and moto's SQS slows down with its depth
 */
public record StackOptions(NotificationRoute notificationRoute, boolean rawDelivery, int maxReceiveCount,
        boolean reportInspection) {

    /** Where S3 sends ObjectCreated notifications. */
    public enum NotificationRoute {
        /** S3 → ingest queue. */
        QUEUE,
        /** S3 → upload topic → ingest queue. */
        TOPIC
    }

    public StackOptions {
        if (notificationRoute == null) {
            throw new IllegalArgumentException("notificationRoute must be QUEUE or TOPIC, not null.");
        }
        if (maxReceiveCount < 1 || maxReceiveCount > 1000) {
            throw new IllegalArgumentException("maxReceiveCount " + maxReceiveCount + " is not between 1 and 1000.");
        }
    }

    /** S3 → SNS (enveloped, not raw) → SQS, maxReceiveCount 5: the deployed shape. */
    public static StackOptions defaults() {
        return new StackOptions(NotificationRoute.TOPIC, false, 5, true);
    }

    public StackOptions withNotificationRoute(NotificationRoute route) {
        return new StackOptions(route, rawDelivery, maxReceiveCount, reportInspection);
    }

    public StackOptions withRawDelivery(boolean raw) {
        return new StackOptions(notificationRoute, raw, maxReceiveCount, reportInspection);
    }

    public StackOptions withMaxReceiveCount(int count) {
        return new StackOptions(notificationRoute, rawDelivery, count, reportInspection);
    }

    public StackOptions withReportInspection(boolean subscribed) {
        return new StackOptions(notificationRoute, rawDelivery, maxReceiveCount, subscribed);
    }
}
