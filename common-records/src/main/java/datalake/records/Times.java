package datalake.records;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Time inputs as datalake-common accepts them: milliseconds since the epoch, seconds (any number
 * up to 100,000,000,000 is taken as seconds), or ISO-8601 text; all normalised to milliseconds.
 * A fraction of a millisecond is dropped towards zero after rounding to microseconds, as
 * {@code Metadata.normalize_date} does ({@code int()} of a microsecond {@code datetime}); unlike its
 * float arithmetic, which loses a millisecond on some whole inputs (543868024841 becomes
 * 543868024840), whole milliseconds and seconds are read exactly.
 */
public final class Times {
    /** Numbers at or below this are seconds since the epoch, above it milliseconds. */
    public static final double SECONDS_CUTOFF = 100_000_000_000d;
    /** Years 0001 to 9999: what ISO-8601 text (and DynamoDB clients) can represent. */
    static final long MIN_MS = -62_135_596_800_000L;
    static final long MAX_MS = 253_402_300_799_999L;
    /** A decimal number as text, as Python's {@code float()} reads it (without its inf, nan and underscores). */
    private static final Pattern NUMBER = Pattern.compile("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?");

    private Times() {
    }

    /** A number of seconds or milliseconds to milliseconds; empty for a value outside years 1-9999. */
    public static OptionalLong fromNumber(double value) {
        if (!Double.isFinite(value)) {
            return OptionalLong.empty();
        }
        boolean seconds = value <= SECONDS_CUTOFF;
        double approximate = seconds ? value * 1000d : value;
        if (approximate < MIN_MS - 1d || approximate > MAX_MS + 1d) {
            return OptionalLong.empty();
        }
        long ms;
        if (value == Math.rint(value)) {
            ms = seconds ? ((long) value) * 1000L : (long) value;
        } else {
            BigDecimal exact = new BigDecimal(value);
            ms = (seconds ? exact : exact.movePointLeft(3)).setScale(6, RoundingMode.HALF_EVEN)
                    .movePointRight(3).setScale(0, RoundingMode.DOWN).longValueExact();
        }
        return ms < MIN_MS || ms > MAX_MS ? OptionalLong.empty() : OptionalLong.of(ms);
    }

    /**
     * Text to milliseconds as datalake-common's {@code normalize_date} reads it: a number as text
     * ({@code "1426809920345"}, {@code "1426809920.345"}) is that number, seconds or milliseconds as
     * {@link #fromNumber} says; anything else is ISO-8601 ({@link #fromIso}). Empty when it is neither, or
     * outside the years 1 to 9999.
     */
    public static OptionalLong fromText(String text) {
        String t = text.strip();
        if (NUMBER.matcher(t).matches()) {
            return fromNumber(Double.parseDouble(t));
        }
        try {
            long ms = fromIso(t);
            return ms >= MIN_MS && ms <= MAX_MS ? OptionalLong.of(ms) : OptionalLong.empty();
        } catch (DateTimeException | ArithmeticException notIso) {
            return OptionalLong.empty();
        }
    }

    /**
     * ISO-8601 text to milliseconds: a date-time with an offset or {@code Z}, a local date-time
     * (taken as UTC), or a date (midnight UTC). The spellings dateutil (datalake-common's parser) also
     * reads are taken: a space for the {@code T}, the basic format ({@code 20150320T000520Z}), a comma
     * before the fraction, more than nine fraction digits (dropped), an offset without its colon or
     * minutes ({@code +0100}, {@code -05}) or after a space, {@code UTC} or {@code GMT} for {@code Z},
     * one-digit months and days, and a lower-case {@code t} or {@code z} (but {@code UTC} and {@code GMT} in
     * capitals only, as dateutil reads zone names).
     *
     * @throws DateTimeException when the text is none of these
     */
    public static long fromIso(String text) {
        String t = extended(text.strip().replace('t', 'T').replace('z', 'Z'));
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

    /** The date, then the time, then the offset, each rewritten to the extended form java.time parses. */
    private static String extended(String t) {
        Matcher basic = BASIC.matcher(t);
        if (basic.matches()) {
            t = basic.group(1) + "-" + basic.group(2) + "-" + basic.group(3) + (basic.group(4) == null ? ""
                    : "T" + basic.group(4) + ":" + basic.group(5) + (basic.group(6) == null ? "" : ":" + basic.group(6)))
                    + Objects.toString(basic.group(7), "");
        }
        Matcher date = SHORT_DATE.matcher(t);
        if (date.lookingAt()) {
            t = date.group(1) + "-" + pad(date.group(2)) + "-" + pad(date.group(3)) + t.substring(date.end());
        }
        if (t.length() > 10 && t.charAt(10) == ' ') {
            t = t.substring(0, 10) + 'T' + t.substring(11);
        }
        t = FRACTION.matcher(t).replaceFirst(m -> "." + m.group(1));
        Matcher offset = OFFSET.matcher(t);
        if (offset.find()) {
            String zone = offset.group(2) != null ? "Z"
                    : offset.group(3) + ":" + (offset.group(4) == null ? "00" : offset.group(4));
            t = t.substring(0, offset.start()) + offset.group(1) + zone;
        }
        return t;
    }

    private static String pad(String digits) {
        return digits.length() == 1 ? "0" + digits : digits;
    }

    private static final Pattern BASIC = Pattern.compile("(\\d{4})(\\d{2})(\\d{2})(?:T(\\d{2})(\\d{2})(\\d{2})?)?(\\D.*)?");
    private static final Pattern SHORT_DATE = Pattern.compile("(\\d{4})-(\\d{1,2})-(\\d{1,2})(?!\\d)");
    /** A fraction after a comma or a point, at most nine digits kept (java.time's nanoseconds). */
    private static final Pattern FRACTION = Pattern.compile("(?<=:\\d{2})[.,](\\d{1,9})\\d*");
    /** The time's end, then a zone: Z, UTC or GMT, or an offset of hours and maybe minutes, maybe after a space. */
    private static final Pattern OFFSET = Pattern.compile(
            "(T\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?) ?(?:(Z|UTC|GMT)|([+-]\\d{2}):?(\\d{2})?)$");

    /** Milliseconds to ISO-8601 UTC text with milliseconds, e.g. {@code 2015-03-20T00:05:20.345Z}. */
    public static String toIso(long ms) {
        return ISO_MS.format(Instant.ofEpochMilli(ms));
    }

    private static final DateTimeFormatter ISO_MS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
}
