package datalake.ingester;

/**
 * One object named by a notification.
 *
 * @param bucket       the bucket name
 * @param key          the object key as S3's APIs take it (decoded where the sender encodes it)
 * @param eventName    what happened, e.g. {@code ObjectCreated:Put} or {@code Object Deleted:DeleteObject}
 *                     (for logs and the report's action; the bucket's state decides what is done)
 * @param sequencer    S3's ordering token for events of the same key, or null when the sender omits it
 * @param alternateKey another reading of the key that may name the object, or null: EventBridge's keys are
 *                     read as sent, and their form-decoded reading is tried when no object has the key as sent
 */
public record ObjectEvent(String bucket, String key, String eventName, String sequencer, String alternateKey) {
    public ObjectEvent(String bucket, String key, String eventName, String sequencer) {
        this(bucket, key, eventName, sequencer, null);
    }

    /** {@code s3://<bucket>/<key>} with the decoded key, the record's {@code url}. */
    public String url() {
        return "s3://" + bucket + "/" + key;
    }

    /** Whether the event reports a removal (a delete, a delete marker, an expiration) rather than a creation. */
    public boolean removal() {
        return eventName.startsWith("ObjectRemoved:") || eventName.startsWith("LifecycleExpiration:")
                || eventName.startsWith("Object Deleted");
    }

    /** The same event about the object under its alternate key. */
    ObjectEvent withAlternateKey() {
        return new ObjectEvent(bucket, alternateKey, eventName, sequencer, null);
    }
}
