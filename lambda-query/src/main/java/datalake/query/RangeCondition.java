package datalake.query;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What one Query asks of the range key, given a WHERE's prefix and a position (either may be null), and
 * so which items DynamoDB reads: every item the key condition selects, in order, up to the Query's
 * Limit, is read and billed, whatever the caller keeps of it. A key condition allows one test of the
 * range key: with a position, {@code range_key > :after}; with a WHERE, {@code begins_with}.
 *
 * @param prefix {@code <where>:} to keep one WHERE, or null
 * @param after  the position: only range keys after it, or null from the beginning
 */
record RangeCondition(String prefix, String after) {

    /** The condition on the range key {@code #r}, to be joined to the hash key's with AND; null for none. */
    String expression() {
        if (after != null) {
            return "#r > :r";
        }
        return prefix == null ? null : "begins_with(#r, :r)";
    }

    /** The values {@link #expression()} names. */
    Map<String, AttributeValue> values() {
        if (after != null) {
            return Map.of(":r", AttributeValue.fromS(after));
        }
        return prefix == null ? Map.of() : Map.of(":r", AttributeValue.fromS(prefix));
    }

    /** Whether the condition selects {@code rangeKey}: an item DynamoDB reads, in range-key order. */
    boolean selects(String rangeKey) {
        if (after != null) {
            return BucketReader.compare(rangeKey, after) > 0;
        }
        return prefix == null || rangeKey.startsWith(prefix);
    }
}
