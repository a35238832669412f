package datalake.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The test table's reading of a key condition, held to what DynamoDB documents for each form. */
class KeyConditionsTest {
    private static final List<String> KEYS = List.of("a:1", "b:1", "b:2", "b;", "c:1", "\uFFFF", "\uD800\uDC00");

    private static List<String> selected(String expression, Map<String, AttributeValue> values) {
        return KEYS.stream().filter(KeyConditions.of(expression, values)).toList();
    }

    private static Map<String, AttributeValue> s(String name, String value) {
        return Map.of(name, AttributeValue.fromS(value));
    }

    @Test
    void eachFormSelectsAsDynamoDbDocumentsIt() {
        assertEquals(List.of("b:1", "b:2", "b;"), selected("#r BETWEEN :a AND :b",
                Map.of(":a", AttributeValue.fromS("b:1"), ":b", AttributeValue.fromS("b;"))), "BETWEEN is inclusive");
        assertEquals(List.of("b:1", "b:2"), selected("begins_with(#r, :p)", s(":p", "b:")));
        assertEquals(List.of("c:1", "\uFFFF", "\uD800\uDC00"), selected("#r > :k", s(":k", "b;")));
        assertEquals(List.of("b;", "c:1", "\uFFFF", "\uD800\uDC00"), selected("#r >= :k", s(":k", "b;")));
        assertEquals(List.of("a:1", "b:1"), selected("#r < :k", s(":k", "b:2")));
        assertEquals(List.of("a:1", "b:1", "b:2"), selected("#r <= :k", s(":k", "b:2")));
        assertEquals(List.of("b:2"), selected("#r = :k", s(":k", "b:2")));
        assertEquals(KEYS, selected(null, Map.of()));
    }

    @Test
    void stringsCompareAsUtf8BytesNotJavaChars() {
        // U+10000 is 4 bytes from F0, after U+FFFF's EF; in UTF-16 its surrogate D800 sorts before FFFF
        assertEquals(List.of("\uD800\uDC00"), selected("#r > :k", s(":k", "\uFFFF")));
    }

    @Test
    void whatDynamoDbRefusesIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> KeyConditions.of("#r BETWEEN :a AND :b",
                Map.of(":a", AttributeValue.fromS("b"), ":b", AttributeValue.fromS("a"))));
        assertThrows(IllegalArgumentException.class, () -> KeyConditions.of("contains(#r, :p)", s(":p", "b")));
        assertThrows(IllegalArgumentException.class, () -> KeyConditions.of("#r > :missing", s(":k", "b")));
    }
}
