package datalake.query;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Content-Type and Content-Encoding a file's download is answered with, as the Python datalake API
 * answered {@code /data}: the type guessed from the file's path (its metadata {@code path}) the way
 * Python's {@code mimetypes.guess_type} does with its built-in table, {@code text/plain} when it knows
 * none; {@code gzip} when the content starts with gzip's magic bytes (by content, not by name), so
 * that an HTTP client (the datalake client's {@code cat} and {@code fetch}) hands over the
 * uncompressed bytes.
 *
 * @param encoding {@code gzip}, or null for none
 */
record ContentHeaders(String type, String encoding) {
    /** The bytes of the content that decide its encoding. */
    static final int MAGIC_LENGTH = 3;
    static final String DEFAULT_TYPE = "text/plain";
    private static final byte[] GZIP_MAGIC = {0x1f, (byte) 0x8b, 0x08};
    /** The datalake client may append "-<sha1 or md5>" to a path; the Python API stripped it (unanchored, as there). */
    private static final Pattern TRAILING_CHECKSUM = Pattern.compile("(.+)-[0-9a-f]{32}");
    /** mimetypes' suffix_map: one suffix standing for two. */
    private static final Map<String, String> SUFFIXES = Map.of(".tgz", ".tar.gz", ".taz", ".tar.gz", ".tz", ".tar.gz",
            ".tbz2", ".tar.bz2", ".txz", ".tar.xz", ".svgz", ".svg.gz");
    /** mimetypes' encodings_map: suffixes that name a compression, not a type. */
    private static final Set<String> ENCODINGS = Set.of(".gz", ".Z", ".bz2", ".xz", ".br");
    /** The common entries of Python's built-in mimetypes table (it also reads the host's mime.types). */
    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry(".txt", "text/plain"), Map.entry(".bat", "text/plain"), Map.entry(".c", "text/plain"),
            Map.entry(".h", "text/plain"), Map.entry(".ksh", "text/plain"), Map.entry(".pl", "text/plain"),
            Map.entry(".srt", "text/plain"), Map.entry(".csv", "text/csv"),
            Map.entry(".tsv", "text/tab-separated-values"), Map.entry(".html", "text/html"),
            Map.entry(".htm", "text/html"), Map.entry(".css", "text/css"), Map.entry(".xml", "text/xml"),
            Map.entry(".py", "text/x-python"), Map.entry(".json", "application/json"),
            Map.entry(".js", "application/javascript"), Map.entry(".pdf", "application/pdf"),
            Map.entry(".xsl", "application/xml"), Map.entry(".rdf", "application/xml"),
            Map.entry(".zip", "application/zip"), Map.entry(".tar", "application/x-tar"),
            Map.entry(".sh", "application/x-sh"), Map.entry(".nc", "application/x-netcdf"),
            Map.entry(".h5", "application/x-hdf5"), Map.entry(".hdf", "application/x-hdf"),
            Map.entry(".bin", "application/octet-stream"), Map.entry(".so", "application/octet-stream"),
            Map.entry(".png", "image/png"), Map.entry(".gif", "image/gif"), Map.entry(".jpg", "image/jpeg"),
            Map.entry(".jpeg", "image/jpeg"), Map.entry(".tif", "image/tiff"), Map.entry(".tiff", "image/tiff"),
            Map.entry(".svg", "image/svg+xml"), Map.entry(".bmp", "image/bmp"), Map.entry(".mp4", "video/mp4"),
            Map.entry(".wav", "audio/x-wav"), Map.entry(".mp3", "audio/mpeg"));

    /**
     * @param path       the file's metadata path, or null when the metadata has none
     * @param firstBytes the first bytes of its content (at least {@link #MAGIC_LENGTH} unless it is shorter)
     */
    static ContentHeaders of(String path, byte[] firstBytes) {
        return new ContentHeaders(type(path), isGzip(firstBytes) ? "gzip" : null);
    }

    static String type(String path) {
        if (path == null) {
            return DEFAULT_TYPE;
        }
        Matcher checksum = TRAILING_CHECKSUM.matcher(path);
        String p = checksum.lookingAt() ? checksum.group(1) : path;
        String ext = extension(p);
        while (SUFFIXES.containsKey(ext)) {
            p = p.substring(0, p.length() - ext.length()) + SUFFIXES.get(ext);
            ext = extension(p);
        }
        if (ENCODINGS.contains(ext)) {
            p = p.substring(0, p.length() - ext.length());
            ext = extension(p);
        }
        String type = TYPES.get(ext);
        if (type == null) {
            type = TYPES.get(ext.toLowerCase(Locale.ROOT));
        }
        return type == null ? DEFAULT_TYPE : type;
    }

    static boolean isGzip(byte[] firstBytes) {
        if (firstBytes.length < GZIP_MAGIC.length) {
            return false;
        }
        for (int i = 0; i < GZIP_MAGIC.length; i++) {
            if (firstBytes[i] != GZIP_MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    /** posixpath.splitext's extension: from the last '.' of the last segment, not counting leading dots. */
    private static String extension(String path) {
        int slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
        String name = path.substring(slash + 1);
        int dot = name.lastIndexOf('.');
        int lead = 0;
        while (lead < name.length() && name.charAt(lead) == '.') {
            lead++;
        }
        return dot >= lead && dot > 0 ? name.substring(dot) : "";
    }
}
