package datalake.tools;

import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.EventBridgeConfiguration;
import software.amazon.awssdk.services.s3.model.GetBucketNotificationConfigurationResponse;

/**
 * Turns on a bucket's delivery of its events to EventBridge, where the stack's rule takes the creations and
 * removals to the ingest queue (docs/DESIGN.md, "Decisions"). PutBucketNotificationConfiguration replaces a
 * bucket's whole configuration, so the topic, queue and Lambda configurations the bucket has are written
 * back as they are, beside the switch.
 */
final class EventBridgeDelivery {
    /**
     * What the bucket had.
     *
     * @param wasOn     EventBridge delivery was on already (nothing was written)
     * @param kept      the topic, queue and Lambda configurations written back (or left) unchanged
     */
    record Outcome(boolean wasOn, int kept) {
    }

    private EventBridgeDelivery() {
    }

    static Outcome turnOn(S3Client s3, String bucket) {
        GetBucketNotificationConfigurationResponse current = s3.getBucketNotificationConfiguration(r -> r.bucket(bucket));
        int kept = current.topicConfigurations().size() + current.queueConfigurations().size()
                + current.lambdaFunctionConfigurations().size();
        if (current.eventBridgeConfiguration() != null) {
            return new Outcome(true, kept);
        }
        // Destinations are not validated again: they are the owner's, unchanged, and one broken before
        // the adoption (a deleted queue) would otherwise refuse the switch.
        s3.putBucketNotificationConfiguration(r -> r.bucket(bucket).skipDestinationValidation(true)
                .notificationConfiguration(n -> n
                        .topicConfigurations(current.topicConfigurations())
                        .queueConfigurations(current.queueConfigurations())
                        .lambdaFunctionConfigurations(current.lambdaFunctionConfigurations())
                        .eventBridgeConfiguration(EventBridgeConfiguration.builder().build())));
        return new Outcome(false, kept);
    }
}
