package datalake.records;

/**
 * Metadata that breaks a rule of the datalake metadata specification (version 0).
 * The message is one sentence naming the field and the rule; it never echoes the rejected value.
 */
public final class InvalidMetadataException extends IllegalArgumentException {
    private final String field;

    public InvalidMetadataException(String field, String message) {
        super(message);
        this.field = field;
    }

    /** The metadata field at fault, or {@code "metadata"} when the document as a whole is. */
    public String field() {
        return field;
    }
}
