package datalake.query;

import java.util.Locale;
import java.util.Map;

/**
 * A validated {@code /v0/archive/coverage/} query: the files of a WHAT (at a WHERE) over [start, end],
 * counted per hour or per day. Bins are aligned to UTC hours or days; the first holds {@code start},
 * the last {@code end}.
 */
record CoverageQuery(String what, String where, long start, long end, Step step) {
    static final long HOUR = 3_600_000L;
    static final long DAY = 24 * HOUR;

    /** A bin's width, and the longest range it may cover (a bounded answer and a bounded read). */
    enum Step {
        HOUR("hour", CoverageQuery.HOUR, 31),
        DAY("day", CoverageQuery.DAY, 366);

        final String text;
        final long millis;
        final int maxDays;

        Step(String text, long millis, int maxDays) {
            this.text = text;
            this.millis = millis;
            this.maxDays = maxDays;
        }
    }

    /** The files query over the same range: which records count, and from which bucket. */
    FilesQuery.ByTime files() {
        return new FilesQuery.ByTime(what, where, start, end);
    }

    long firstBin() {
        return Math.floorDiv(start, step.millis);
    }

    int binCount() {
        return (int) (Math.floorDiv(end, step.millis) - firstBin() + 1);
    }

    /**
     * The files route's checks and codes for what, where, start and end, in its order, but in sentences
     * of its own: coverage takes no work_id ({@code InvalidWorkInterval}), so none offers one. Then
     * {@code step} ({@code InvalidStep}) and the range's length ({@code RangeTooLong}).
     */
    static CoverageQuery parse(Map<String, String> params, long now) {
        if (params.isEmpty()) {
            throw RequestRejectedException.badRequest(ErrorCodes.NO_ARGS, "Give query parameters: what, start and end.");
        }
        String what = FilesQueryParser.what(params);
        if (FilesQueryParser.present(params, "work_id") != null) {
            throw RequestRejectedException.badRequest(ErrorCodes.INVALID_WORK_INTERVAL,
                    "Give start and end for coverage; it does not take work_id.");
        }
        String start = FilesQueryParser.present(params, "start");
        String end = FilesQueryParser.present(params, "end");
        if (start == null && end == null) {
            throw RequestRejectedException.badRequest(ErrorCodes.NO_WORK_INTERVAL, "Give start and end.");
        }
        FilesQuery.ByTime time = FilesQueryParser.byTime(what, FilesQueryParser.present(params, "where"), start, end,
                now);
        String stepText = FilesQueryParser.present(params, "step");
        Step step = Step.DAY;
        if (stepText != null) {
            step = switch (stepText.strip().toLowerCase(Locale.ROOT)) {
                case "hour" -> Step.HOUR;
                case "day" -> Step.DAY;
                default -> throw RequestRejectedException.badRequest(ErrorCodes.INVALID_STEP,
                        "Give step as hour or day, not \"" + FilesQueryParser.abbreviate(stepText) + "\".");
            };
        }
        if (time.end() - time.start() > step.maxDays * DAY) {
            throw RequestRejectedException.badRequest(ErrorCodes.RANGE_TOO_LONG, "Give a range of at most "
                    + step.maxDays + " days at " + step.text + " steps"
                    + (step == Step.HOUR ? ", or ask for day steps." : ", or split it into several queries."));
        }
        return new CoverageQuery(time.what(), time.where(), time.start(), time.end(), step);
    }
}
