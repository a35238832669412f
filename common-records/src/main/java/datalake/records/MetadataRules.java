package datalake.records;

import java.util.regex.Pattern;

/** The field rules of metadata version 0, each failing with one sentence naming field and rule. */
final class MetadataRules {
    static final int MAX_ID_LENGTH = 128;
    private static final Pattern SLUG = Pattern.compile("[a-z0-9_-]+");
    private static final Pattern HASH = Pattern.compile("[0-9a-fA-F]{32}");
    private static final Pattern WINDOWS_ABSOLUTE = Pattern.compile("[A-Za-z]:\\\\.*");

    private MetadataRules() {
    }

    static void checkText(String field, String value) {
        if (value == null) {
            throw new InvalidMetadataException(field, "metadata field '" + field + "' is required and must not be null.");
        }
    }

    static void checkSlug(String field, String value) {
        checkText(field, value);
        if (!SLUG.matcher(value).matches()) {
            throw new InvalidMetadataException(field, "metadata field '" + field
                    + "' must contain only lowercase letters, digits, '-' and '_'.");
        }
    }

    static void checkWorkId(String workId) {
        checkSlug("work_id", workId);
        if (workId.equals("null")) {
            throw new InvalidMetadataException("work_id",
                    "metadata field 'work_id' must not be the string \"null\"; use a JSON null for no work id.");
        }
    }

    static void checkPath(String path) {
        if (!path.startsWith("/") && !WINDOWS_ABSOLUTE.matcher(path).matches()) {
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
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c == ':' || Character.isWhitespace(c) || Character.isISOControl(c)) {
                throw new InvalidMetadataException("id",
                        "metadata field 'id' must not contain ':', whitespace or control characters.");
            }
        }
    }

    /** Returns the hash in lowercase hex. */
    static String checkHash(String hash) {
        checkText("hash", hash);
        if (!HASH.matcher(hash).matches()) {
            throw new InvalidMetadataException("hash",
                    "metadata field 'hash' must be the 16-byte BLAKE2b of the content as 32 hex characters.");
        }
        return hash.toLowerCase(java.util.Locale.ROOT);
    }
}
