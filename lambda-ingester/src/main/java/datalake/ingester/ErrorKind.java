package datalake.ingester;

/**
 * Why a message was not ingested, as the logs, the metrics and the DLQ attribute {@code error_kind}
 * name it. Permanent kinds cannot succeed on redelivery (docs/DESIGN.md, "Failure policy"): the message is
 * reported, dead-lettered and acknowledged. Transient kinds may: the message goes back to SQS.
 */
public enum ErrorKind {
    /** The body is not JSON. */
    BAD_JSON("BadJson", true),
    /** JSON, but not an S3 event, SNS envelope, EventBridge S3 event or test event. */
    BAD_NOTIFICATION("BadNotification", true),
    /** An S3 event other than an object creation or removal (a restore, a tagging, ...). */
    UNSUPPORTED_S3_EVENT("UnsupportedS3Event", true),
    /** The object has no {@code datalake} user metadata. */
    MISSING_METADATA("MissingMetadata", true),
    /** The {@code datalake} user metadata breaks a rule of metadata version 0. */
    INVALID_METADATA("InvalidMetadata", true),
    NO_SUCH_KEY("NoSuchKey", true),
    NO_SUCH_BUCKET("NoSuchBucket", true),
    /** The file spans more day buckets than DATALAKE_MAX_BUCKET_SPAN. */
    UNSUPPORTED_TIME_RANGE("UnsupportedTimeRange", true),
    /** DynamoDB refused the record itself (a key or the item over its size limit), while it took its neighbours. */
    ITEM_REJECTED("ItemRejected", true),

    /** The service asked us to slow down (throttling, request limits, S3 SlowDown). */
    THROTTLING("Throttling", false),
    /** A 5xx from the service. */
    SERVICE_ERROR("ServiceError", false),
    /** Timeouts, refused connections, broken responses: the request never got a service answer. */
    NETWORK("Network", false),
    /** Another error answer (access denied, missing table, ...): often configuration, fixed by a deploy. */
    AWS_ERROR("AwsError", false),
    /** A step (HEAD, commit, writes, deletes, latest table) left undone, or a call cut short, by the time budget. */
    TIME_BUDGET("TimeBudget", false),
    /** The object kept changing under concurrent handlers while its records were aligned; SQS retries. */
    CONTENTION("Contention", false),
    /** A permanent failure that could not be dead-lettered: SQS keeps the message instead. */
    DLQ_UNAVAILABLE("DlqUnavailable", false),
    /** A defect of this code; SQS retries and the queue's redrive policy bounds the retries. */
    UNEXPECTED("Unexpected", false);

    private final String label;
    private final boolean permanent;

    ErrorKind(String label, boolean permanent) {
        this.label = label;
        this.permanent = permanent;
    }

    /** The name in logs, metrics and the DLQ attribute {@code error_kind}, e.g. {@code InvalidMetadata}. */
    public String label() {
        return label;
    }

    public boolean permanent() {
        return permanent;
    }
}
