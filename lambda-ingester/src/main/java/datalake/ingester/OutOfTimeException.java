package datalake.ingester;

/**
 * An SDK call the invocation's deadline did not let start, or (as the cause of the SDK's
 * ApiCallTimeoutException) cut short ({@link CallDeadline}): {@link ErrorKind#TIME_BUDGET}.
 */
final class OutOfTimeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OutOfTimeException(String message) {
        super(message);
    }
}
