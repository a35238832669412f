package datalake.ingester;

/**
 * One object named by a notification.
 *
 * @param bucket    the bucket name
 * @param key       the object key, URL-decoded (as S3 APIs take it)
 * @param eventName what happened, e.g. {@code ObjectCreated:Put} (for logs)
 * @param sequencer S3's ordering token for events of the same key, or null when the sender omits it
 */
public record ObjectEvent(String bucket, String key, String eventName, String sequencer) {
    /** {@code s3://<bucket>/<key>} with the decoded key, the record's {@code url}. */
    public String url() {
        return "s3://" + bucket + "/" + key;
    }
}
