package datalake.ingester;

/** A queue message that is not a notification the ingester understands; always permanent. */
final class NotificationException extends RuntimeException {
    private final ErrorKind kind;

    public NotificationException(ErrorKind kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    public ErrorKind kind() {
        return kind;
    }
}
