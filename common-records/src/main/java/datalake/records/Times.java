package datalake.records;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.OptionalLong;

/**
 * Time inputs as datalake-common accepts them: milliseconds since the epoch, seconds (any number
 * up to 100,000,000,000 is taken as seconds), or ISO-8601 text; all normalised to milliseconds.
 */
public final class Times {
    /** Numbers at or below this are seconds since the epoch, above it milliseconds. */
    public static final double SECONDS_CUTOFF = 100_000_000_000d;
    /** Years 0001 to 9999: what ISO-8601 text (and DynamoDB clients) can represent. */
    static final long MIN_MS = -62_135_596_800_000L;
    static final long MAX_MS = 253_402_300_799_999L;

    private Times() {
    }

    /** A number of seconds or milliseconds to milliseconds; empty for a value outside years 1-9999. */
    public static OptionalLong fromNumber(double value) {
        if (!Double.isFinite(value)) {
            return OptionalLong.empty();
        }
        double ms = value <= SECONDS_CUTOFF ? value * 1000d : value;
        if (ms < MIN_MS || ms > MAX_MS) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Math.round(ms));
    }

    /**
     * ISO-8601 text to milliseconds: a date-time with an offset or {@code Z}, a local date-time
     * (taken as UTC), or a date (midnight UTC). A space may stand for the {@code T}.
     *
     * @throws DateTimeException when the text is none of these
     */
    public static long fromIso(String text) {
        String t = text.strip();
        if (t.length() > 10 && t.charAt(10) == ' ') {
            t = t.substring(0, 10) + 'T' + t.substring(11);
        }
        try {
            return OffsetDateTime.parse(t, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant().toEpochMilli();
        } catch (DateTimeParseException notOffset) {
            try {
                return LocalDateTime.parse(t, DateTimeFormatter.ISO_LOCAL_DATE_TIME).toInstant(ZoneOffset.UTC).toEpochMilli();
            } catch (DateTimeParseException notLocal) {
                return LocalDate.parse(t, DateTimeFormatter.ISO_LOCAL_DATE).atStartOfDay(ZoneOffset.UTC)
                        .toInstant().toEpochMilli();
            }
        }
    }

    /** Milliseconds to ISO-8601 UTC text with milliseconds, e.g. {@code 2015-03-20T00:05:20.345Z}. */
    public static String toIso(long ms) {
        return ISO_MS.format(Instant.ofEpochMilli(ms));
    }

    private static final DateTimeFormatter ISO_MS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
}
