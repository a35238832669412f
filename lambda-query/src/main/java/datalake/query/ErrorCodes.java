package datalake.query;

/** The {@code code} values of error responses: those of the datalake v0 API, plus routing and server faults. */
final class ErrorCodes {
    public static final String NO_ARGS = "NoArgs";
    public static final String NO_WHAT = "NoWhat";
    public static final String NO_WORK_INTERVAL = "NoWorkInterval";
    public static final String INVALID_WORK_INTERVAL = "InvalidWorkInterval";
    public static final String INVALID_TIME = "InvalidTime";
    public static final String INVALID_CURSOR = "InvalidCursor";
    public static final String INVALID_LOOKBACK = "InvalidLookback";
    public static final String NO_SUCH_FILE = "NoSuchFile";
    /** 400 for a coverage step other than hour or day. */
    public static final String INVALID_STEP = "InvalidStep";
    /** 400 for a coverage range longer than its step allows (31 days of hours, 366 days). */
    public static final String RANGE_TOO_LONG = "RangeTooLong";
    /** 409 for the data of a file archived in S3 (Glacier Flexible Retrieval, Deep Archive) and not restored. */
    public static final String FILE_ARCHIVED = "FileArchived";
    /** 404 for the feeds of an API that keeps no latest table. */
    public static final String NO_LATEST_TABLE = "NoLatestTable";
    /** 404 for a path that is no route of the API. */
    public static final String NO_SUCH_ROUTE = "NoSuchRoute";
    /** 405 for a route asked with another method than GET. */
    public static final String METHOD_NOT_ALLOWED = "MethodNotAllowed";
    /** 503 when DynamoDB or S3 cannot answer (throttling, outage, network). */
    public static final String SERVICE_UNAVAILABLE = "ServiceUnavailable";
    /** 500 for a fault of this function itself. */
    public static final String INTERNAL_ERROR = "InternalError";

    private ErrorCodes() {
    }
}
