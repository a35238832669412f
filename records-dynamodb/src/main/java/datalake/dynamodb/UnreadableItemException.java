package datalake.dynamodb;

/**
 * An item that cannot be read as a record even liberally: its keys, its times or its url are missing or
 * malformed. The message says which, in one sentence, and never repeats a value.
 */
public final class UnreadableItemException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public UnreadableItemException(String why) {
        super("the item is not a datalake record: " + why);
    }
}
