package datalake.query;

/**
 * A request the API refuses: a 4xx status with the v0 error code ({@code NoWhat}, {@code InvalidCursor},
 * {@code NoSuchFile}, …) and one sentence telling the caller what to change.
 */
final class RequestRejectedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final String code;

    public RequestRejectedException(int status, String code, String message) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        if (status < 400 || status > 499) {
            throw new IllegalArgumentException("a rejection is a 4xx status, not " + status);
        }
    }

    static RequestRejectedException badRequest(String code, String message) {
        return new RequestRejectedException(400, code, message);
    }

    static RequestRejectedException noSuchFile(String message) {
        return new RequestRejectedException(404, ErrorCodes.NO_SUCH_FILE, message);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }
}
