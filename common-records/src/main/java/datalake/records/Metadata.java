package datalake.records;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The datalake metadata of one file (version 0), validated and normalised: times in milliseconds
 * since the epoch, {@code end} null for an instant, {@code workId} null when the file has none.
 *
 * <p>Build one with {@link MetadataParser} from untrusted JSON, or with the canonical constructor,
 * which applies the same rules to already-typed values.
 *
 * @param extras the document's fields beyond the nine of {@link #FIELDS}, in their order, as the Python
 *               datalake keeps them (its {@code Metadata} is a dict): each a JSON value DynamoDB can store,
 *               numbers as DynamoDB gives them back ({@code 1.50} is {@code 1.5}). Part of equality (a
 *               changed extra field is changed metadata), never of {@link #toString()}; {@link #extras()}
 *               answers copies, so that no caller can change a metadata's equality
 */
public record Metadata(
        long start,
        Long end,
        String path,
        String workId,
        String where,
        String what,
        String id,
        String hash,
        Map<String, JsonNode> extras) {

    /** The only metadata version this code understands. */
    public static final int VERSION = 0;

    /** The fields of version 0, in the order the datalake writes them; any other is an extra field. */
    public static final List<String> FIELDS = List.of("version", "start", "end", "path", "work_id", "where", "what",
            "id", "hash");

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
        extras = MetadataExtras.of(extras);
    }

    /** Metadata without extra fields. */
    public Metadata(long start, Long end, String path, String workId, String where, String what, String id,
            String hash) {
        this(start, end, path, workId, where, what, id, hash, Map.of());
    }

    /** The extra fields, in their order: unmodifiable, each value a copy (JSON nodes can be changed). */
    @Override
    public Map<String, JsonNode> extras() {
        if (extras.isEmpty()) {
            return extras;
        }
        Map<String, JsonNode> copies = new LinkedHashMap<>(extras.size() * 2);
        extras.forEach((name, value) -> copies.put(name, value.deepCopy()));
        return Collections.unmodifiableMap(copies);
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
        return new Metadata(start, end, path, workId, where, what, newId, hash, extras);
    }

    /** A copy with another time range. */
    public Metadata withTimes(long newStart, Long newEnd) {
        return new Metadata(newStart, newEnd, path, workId, where, what, id, hash, extras);
    }

    @Override
    public String toString() {
        // Deliberately only the identifying fields: path, work_id and extra fields may be sensitive in logs.
        return "Metadata[what=" + what + ", where=" + where + ", id=" + id + "]";
    }
}
