package datalake.records;

import java.util.regex.Pattern;

/**
 * The field rules of metadata version 0. The {@code check} methods fail with one sentence naming field
 * and rule (the ingester's {@code InvalidMetadata}); the public predicates are the same rules for the
 * query API, which answers nothing for a value no stored file can have.
 *
 * <p>The lengths keep every key built from these fields inside DynamoDB's limits (docs/DESIGN.md,
 * "Limits"): a partition key holds at most {@value #MAX_PARTITION_KEY_BYTES} bytes of UTF-8, a sort key
 * {@value #MAX_SORT_KEY_BYTES}. Slugs are ASCII, so their characters are bytes; an id of
 * {@value #MAX_ID_LENGTH} UTF-16 characters is at most {@value #MAX_ID_BYTES} bytes of UTF-8. The longest
 * key, {@code range_key = <where>:<id>}, is then at most 256 + 1 + 384 = 641 bytes.
 */
public final class MetadataRules {
    /** The most characters of {@code what}, {@code where} and {@code work_id}. */
    public static final int MAX_SLUG_LENGTH = 256;
    /** The most UTF-16 characters of {@code id}. */
    public static final int MAX_ID_LENGTH = 128;
    /**
     * The most UTF-16 characters of {@code hash}: a hex SHA-512 fits. The Python datalake never checks a
     * hash, so any text is taken; this bound keeps metadata at every limit inside S3's 2 KB of user metadata.
     */
    public static final int MAX_HASH_LENGTH = 128;
    /** The most UTF-8 bytes an id within {@link #MAX_ID_LENGTH} can take: 3 per UTF-16 character. */
    public static final int MAX_ID_BYTES = 3 * MAX_ID_LENGTH;
    /** DynamoDB's limit on a partition (hash) key value, in bytes. */
    public static final int MAX_PARTITION_KEY_BYTES = 2048;
    /** DynamoDB's limit on a sort (range) key value, in bytes. */
    public static final int MAX_SORT_KEY_BYTES = 1024;

    private static final Pattern SLUG = Pattern.compile("[a-z0-9_-]+");
    /**
     * A drive, a backslash and something on the line after it, as datalake-common's regex matches a path's
     * start (UNIX_LINES: Python's {@code .} stops only at {@code \n}).
     */
    private static final Pattern WINDOWS_ABSOLUTE = Pattern.compile("[A-Za-z]:\\\\.+", Pattern.UNIX_LINES);

    private MetadataRules() {
    }

    /** Whether a {@code what} or {@code where} can be a stored file's: a slug of 1 to 256 characters. */
    public static boolean isSlug(String value) {
        return value != null && value.length() <= MAX_SLUG_LENGTH && SLUG.matcher(value).matches();
    }

    /** Whether a work_id can be a stored file's: a slug, and not the string "null". */
    public static boolean isWorkId(String value) {
        return isSlug(value) && !value.equals(Keys.NULL_WORK_ID_PREFIX);
    }

    /**
     * Whether an id can be a stored file's: 1 to 128 characters of Unicode, without ':', whitespace or
     * controls.
     */
    public static boolean isId(String id) {
        if (id == null || id.isEmpty() || id.length() > MAX_ID_LENGTH || !isUnicode(id)) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            // isSpaceChar: the no-break spaces (U+00A0, U+2007, U+202F), which isWhitespace leaves out
            if (c == ':' || Character.isWhitespace(c) || Character.isSpaceChar(c) || Character.isISOControl(c)) {
                return false;
            }
        }
        return true;
    }

    static void checkText(String field, String value) {
        if (value == null) {
            throw new InvalidMetadataException(field, "metadata field '" + field + "' is required and must not be null.");
        }
        if (!isUnicode(value)) {
            throw new InvalidMetadataException(field, "metadata field '" + field
                    + "' must be Unicode text, without an unpaired surrogate (U+D800 to U+DFFF).");
        }
    }

    /**
     * Whether text has no unpaired UTF-16 surrogate. A JSON escape can carry one (Python's json writes a lone
     * U+D800 so), but UTF-8, DynamoDB's encoding of strings, cannot.
     */
    static boolean isUnicode(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    static void checkSlug(String field, String value) {
        checkText(field, value);
        if (!SLUG.matcher(value).matches()) {
            throw new InvalidMetadataException(field, "metadata field '" + field
                    + "' must contain only lowercase letters, digits, '-' and '_'.");
        }
        if (value.length() > MAX_SLUG_LENGTH) {
            throw new InvalidMetadataException(field, "metadata field '" + field + "' must be at most "
                    + MAX_SLUG_LENGTH + " characters long, so that its keys fit DynamoDB's limits.");
        }
    }

    static void checkWorkId(String workId) {
        checkSlug("work_id", workId);
        if (!isWorkId(workId)) {
            throw new InvalidMetadataException("work_id",
                    "metadata field 'work_id' must not be the string \"null\"; use a JSON null for no work id.");
        }
    }

    static void checkPath(String path) {
        if (!path.startsWith("/") && !WINDOWS_ABSOLUTE.matcher(path).lookingAt()) {
            throw new InvalidMetadataException("path",
                    "metadata field 'path' must be an absolute path (POSIX /... or Windows C:\\...).");
        }
    }

    static void checkId(String id) {
        checkText("id", id);
        if (id.isEmpty() || id.length() > MAX_ID_LENGTH) {
            throw new InvalidMetadataException("id",
                    "metadata field 'id' must be 1 to " + MAX_ID_LENGTH + " characters long.");
        }
        if (!isId(id)) {
            throw new InvalidMetadataException("id",
                    "metadata field 'id' must not contain ':', whitespace or control characters.");
        }
    }

    /**
     * A hash is stored and served as given: the datalake client writes the content's BLAKE2b
     * ({@link ContentHash}), but the Python datalake accepted any text, and producers wrote others.
     */
    static void checkHash(String hash) {
        checkText("hash", hash);
        if (hash.isEmpty() || hash.length() > MAX_HASH_LENGTH) {
            throw new InvalidMetadataException("hash",
                    "metadata field 'hash' must be 1 to " + MAX_HASH_LENGTH + " characters long.");
        }
        for (int i = 0; i < hash.length(); i++) {
            if (Character.isISOControl(hash.charAt(i))) {
                throw new InvalidMetadataException("hash", "metadata field 'hash' must not contain control characters.");
            }
        }
    }
}
