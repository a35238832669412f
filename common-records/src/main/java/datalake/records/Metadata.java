package datalake.records;

/**
 * The datalake metadata of one file (version 0), validated and normalised: times in milliseconds
 * since the epoch, {@code end} null for an instant, {@code workId} null when the file has none.
 *
 * <p>Build one with {@link MetadataParser} from untrusted JSON, or with the canonical constructor,
 * which applies the same rules to already-typed values.
 */
public record Metadata(
        long start,
        Long end,
        String path,
        String workId,
        String where,
        String what,
        String id,
        String hash) {

    /** The only metadata version this code understands. */
    public static final int VERSION = 0;

    public Metadata {
        MetadataRules.checkText("path", path);
        MetadataRules.checkPath(path);
        MetadataRules.checkSlug("where", where);
        MetadataRules.checkSlug("what", what);
        if (workId != null) {
            MetadataRules.checkWorkId(workId);
        }
        MetadataRules.checkId(id);
        MetadataRules.checkHash(hash);
        if (end != null && end < start) {
            throw new InvalidMetadataException("end", "metadata field 'end' must not be before 'start'.");
        }
    }

    public int version() {
        return VERSION;
    }

    /** The end of the file's time range, or its start when it is an instant. */
    public long endOrStart() {
        return end == null ? start : end;
    }

    /** A copy with another id (the datalake client assigns ids; tests and tools derive files). */
    public Metadata withId(String newId) {
        return new Metadata(start, end, path, workId, where, what, newId, hash);
    }

    /** A copy with another time range. */
    public Metadata withTimes(long newStart, Long newEnd) {
        return new Metadata(newStart, newEnd, path, workId, where, what, id, hash);
    }

    @Override
    public String toString() {
        // Deliberately only the identifying fields: path and work_id may be sensitive in logs.
        return "Metadata[what=" + what + ", where=" + where + ", id=" + id + "]";
    }
}
