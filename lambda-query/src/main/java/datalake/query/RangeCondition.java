package datalake.query;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What one Query asks of the range key, given a WHERE's prefix and a position (either may be null), and
 * so which items DynamoDB reads: every item the key condition selects, in order, up to the Query's
 * Limit, is read and billed, whatever the caller keeps of it. A key condition allows one test of the
 * range key: with a position, {@code range_key > :after}; with a WHERE, {@code begins_with}; with both,
 * {@code BETWEEN} the key just after the position and the end of the WHERE's keys, so that a WHERE read
 * from a position stops at its last key rather than reading on, up to the Limit, into the WHEREs after
 * it (PageCostTest: a day's 150 files of a WHERE read 202 items so, 151 bounded).
 *
 * <p>The bounds are exact in DynamoDB's order of UTF-8 bytes: the least string after the position is
 * the position and a U+0000; every key that begins with {@code <where>:} lies before {@code <where>;}
 * ({@code ;} follows {@code :}), which no range key of ours is ({@code RangeKey}: {@code <where>:<id>}).
 *
 * @param prefix {@code <where>:} to keep one WHERE, or null
 * @param after  the position: only range keys after it, or null from the beginning
 */
record RangeCondition(String prefix, String after) {

    /**
     * Whether no range key can meet the condition: the position lies at or past the WHERE's last key, and
     * a Query would be wasted (DynamoDB refuses a BETWEEN whose bounds are reversed).
     */
    boolean empty() {
        return bounded() && BucketReader.compare(first(), end()) > 0;
    }

    /** The condition on the range key {@code #r}, to be joined to the hash key's with AND; null for none. */
    String expression() {
        if (bounded()) {
            return "#r BETWEEN :r AND :end";
        }
        if (after != null && prefix == null) {
            return "#r > :r";
        }
        return prefix == null ? null : "begins_with(#r, :r)";
    }

    /** The values {@link #expression()} names. */
    Map<String, AttributeValue> values() {
        if (bounded()) {
            return Map.of(":r", AttributeValue.fromS(first()), ":end", AttributeValue.fromS(end()));
        }
        if (after != null && prefix == null) {
            return Map.of(":r", AttributeValue.fromS(after));
        }
        return prefix == null ? Map.of() : Map.of(":r", AttributeValue.fromS(prefix));
    }

    /**
     * A WHERE and a position within or past its keys; a position before them (no cursor of ours, whose
     * position is a key of the WHERE it reads) selects the WHERE's keys from the first, as begins_with does.
     */
    private boolean bounded() {
        return prefix != null && after != null && BucketReader.compare(after, prefix) >= 0;
    }

    /** The least range key after the position. */
    private String first() {
        return after + '\u0000';
    }

    /** The least string after every key that begins with the prefix, {@code <where>:}: {@code <where>;}. */
    private String end() {
        return prefix.substring(0, prefix.length() - 1) + (char) (prefix.charAt(prefix.length() - 1) + 1);
    }
}
