package datalake.query;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A range-key condition read as DynamoDB reads a Query's {@code KeyConditionExpression}, from its text and
 * its values alone: {@code #r = :v}, {@code <}, {@code <=}, {@code >}, {@code >=}, {@code BETWEEN :a AND :b}
 * (inclusive; reversed bounds are a ValidationException) and {@code begins_with(#r, :v)}, strings compared
 * as their UTF-8 bytes, unsigned. Any other text is refused, as DynamoDB refuses what it cannot parse. The
 * in-memory table selects its items so, independently of how {@link RangeCondition} builds the condition.
 */
final class KeyConditions {
    private static final Pattern COMPARISON = Pattern.compile("\\s*#r\\s*(=|<=|<|>=|>)\\s*(:\\w+)\\s*");
    private static final Pattern BETWEEN = Pattern.compile("\\s*#r\\s+BETWEEN\\s+(:\\w+)\\s+AND\\s+(:\\w+)\\s*",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern BEGINS_WITH =
            Pattern.compile("\\s*begins_with\\s*\\(\\s*#r\\s*,\\s*(:\\w+)\\s*\\)\\s*");

    private KeyConditions() {
    }

    /** Whether the condition on {@code #r} (null: none) selects the range key. */
    static boolean selects(String expression, Map<String, AttributeValue> values, String rangeKey) {
        return of(expression, values).test(rangeKey);
    }

    /** The range keys the condition on {@code #r} (null: none) selects, the expression read once. */
    static Predicate<String> of(String expression, Map<String, AttributeValue> values) {
        if (expression == null) {
            if (!values.isEmpty()) {
                throw new IllegalArgumentException("values without an expression: " + values.keySet());
            }
            return key -> true;
        }
        Matcher m = BETWEEN.matcher(expression);
        if (m.matches()) {
            byte[] low = value(values, m.group(1));
            byte[] high = value(values, m.group(2));
            if (Arrays.compareUnsigned(low, high) > 0) {
                throw new IllegalArgumentException(
                        "ValidationException: BETWEEN's lower bound is greater than its upper bound: " + expression);
            }
            return key -> Arrays.compareUnsigned(utf8(key), low) >= 0 && Arrays.compareUnsigned(utf8(key), high) <= 0;
        }
        m = BEGINS_WITH.matcher(expression);
        if (m.matches()) {
            byte[] prefix = value(values, m.group(1));
            return key -> {
                byte[] k = utf8(key);
                return k.length >= prefix.length && Arrays.equals(k, 0, prefix.length, prefix, 0, prefix.length);
            };
        }
        m = COMPARISON.matcher(expression);
        if (m.matches()) {
            byte[] operand = value(values, m.group(2));
            IntPredicate holds = switch (m.group(1)) {
                case "=" -> c -> c == 0;
                case "<" -> c -> c < 0;
                case "<=" -> c -> c <= 0;
                case ">" -> c -> c > 0;
                default -> c -> c >= 0;
            };
            return key -> holds.test(Arrays.compareUnsigned(utf8(key), operand));
        }
        throw new IllegalArgumentException("not a range-key condition DynamoDB reads: " + expression);
    }

    private static byte[] value(Map<String, AttributeValue> values, String name) {
        AttributeValue value = values.get(name);
        if (value == null || value.s() == null) {
            throw new IllegalArgumentException(
                    "ValidationException: " + name + " is not a string value of the expression");
        }
        return utf8(value.s());
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
