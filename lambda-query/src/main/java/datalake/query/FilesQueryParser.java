package datalake.query;

import datalake.records.Times;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Turns the parameters of {@code /v0/archive/files/} into a {@link FilesQuery}, with exactly the v0
 * API's 400 codes, checked in its order: NoArgs, NoWhat, NoWorkInterval, InvalidWorkInterval,
 * InvalidTime, InvalidWorkInterval (start after end). The cursor is checked afterwards, against the query.
 */
final class FilesQueryParser {
    /** The time value that stands for the request's time. */
    static final String NOW = "now";

    private FilesQueryParser() {
    }

    /** @param now the request's time, what {@code now} stands for */
    static FilesQuery parse(Map<String, String> params, long now) {
        if (params.isEmpty()) {
            throw RequestRejectedException.badRequest(ErrorCodes.NO_ARGS,
                    "Give query parameters: what, and either start and end or work_id.");
        }
        String what = what(params);
        String where = present(params, "where");
        String workId = present(params, "work_id");
        String start = present(params, "start");
        String end = present(params, "end");
        if (workId == null && start == null && end == null) {
            throw RequestRejectedException.badRequest(ErrorCodes.NO_WORK_INTERVAL,
                    "Give either work_id or start and end.");
        }
        if (workId != null && (start != null || end != null)) {
            throw RequestRejectedException.badRequest(ErrorCodes.INVALID_WORK_INTERVAL,
                    "Give either work_id or start and end, not both.");
        }
        if (workId != null) {
            return new FilesQuery.ByWorkId(what, where, workId);
        }
        return byTime(what, where, start, end, now);
    }

    /** The {@code what} parameter; NoWhat without it. */
    static String what(Map<String, String> params) {
        String what = present(params, "what");
        if (what == null) {
            throw RequestRejectedException.badRequest(ErrorCodes.NO_WHAT, "Give the what parameter.");
        }
        return what;
    }

    /**
     * A time query from {@code start} and {@code end}, at least one of them given: both are needed
     * (InvalidWorkInterval), readable (InvalidTime) and in order (InvalidWorkInterval).
     *
     * @param now the request's time, what {@code now} stands for
     */
    static FilesQuery.ByTime byTime(String what, String where, String start, String end, long now) {
        if (start == null || end == null) {
            throw RequestRejectedException.badRequest(ErrorCodes.INVALID_WORK_INTERVAL,
                    "Give start and end together.");
        }
        long startMs = time("start", start, now);
        long endMs = time("end", end, now);
        if (startMs > endMs) {
            throw RequestRejectedException.badRequest(ErrorCodes.INVALID_WORK_INTERVAL,
                    "Give a start that is not after end.");
        }
        return new FilesQuery.ByTime(what, where, startMs, endMs);
    }

    /** A parameter's value, or null when it is absent or empty (the datalake client never sends empty ones). */
    static String present(Map<String, String> params, String name) {
        String value = params.get(name);
        return value == null || value.isEmpty() ? null : value;
    }

    /**
     * Milliseconds since the epoch, seconds (numbers up to 100,000,000,000), or ISO-8601 text, as the
     * datalake client and datalake-common accept them; years 1 to 9999. Exactly {@code now} is the
     * request's time, as the Python API's {@code normalize_date} read it (metadata times never are).
     */
    static long time(String name, String value, long now) {
        if (value.equals(NOW)) {
            return now;
        }
        OptionalLong ms = Times.fromText(value);
        if (ms.isPresent()) {
            return ms.getAsLong();
        }
        throw RequestRejectedException.badRequest(ErrorCodes.INVALID_TIME, "Give " + name
                + " as milliseconds since the epoch, an ISO-8601 time between the years 1 and 9999, or \"now\", not \""
                + abbreviate(value.strip()) + "\".");
    }

    static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…";
    }
}
