package datalake.ingester;

/**
 * An object that kept changing under concurrent handlers while this one tried to follow it: SQS delivers
 * the message again (a {@link ErrorKind#CONTENTION}), by when the others are done.
 */
final class ContentionException extends RuntimeException {
    ContentionException(String message) {
        super(message, null, false, false);
    }
}
