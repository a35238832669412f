package datalake.bench.limits;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Item sizes and capacity units as DynamoDB counts them, from items in their wire form
 * ({@code {"name": {"S": "..."}}}): an attribute is its name's UTF-8 bytes plus its value's; a string
 * its UTF-8 bytes, a number about one byte per two significant digits plus one, a binary its bytes,
 * a boolean or null one byte, a list or map 3 bytes plus one per element plus the elements.
 */
final class ItemSizes {
    private static final double WRITE_UNIT_BYTES = 1024;
    private static final double READ_UNIT_BYTES = 4096;

    private ItemSizes() {
    }

    /** The bytes of an item (or of a key, or of any map of attribute names to values). */
    static long item(JsonNode attributes) {
        long bytes = 0;
        for (Map.Entry<String, JsonNode> attribute : attributes.properties()) {
            bytes += utf8(attribute.getKey()) + value(attribute.getValue());
        }
        return bytes;
    }

    /** The bytes of one attribute value. */
    static long value(JsonNode value) {
        if (!value.isObject() || value.size() != 1) {
            return 0;
        }
        Map.Entry<String, JsonNode> typed = value.properties().iterator().next();
        JsonNode v = typed.getValue();
        return switch (typed.getKey()) {
            case "S" -> utf8(v.asText());
            case "N" -> number(v.asText());
            case "B" -> binary(v.asText());
            case "BOOL", "NULL" -> 1;
            case "SS" -> sum(v, "S");
            case "NS" -> sum(v, "N");
            case "BS" -> sum(v, "B");
            case "L" -> {
                long bytes = 3;
                for (JsonNode element : v) {
                    bytes += 1 + value(element);
                }
                yield bytes;
            }
            case "M" -> 3 + v.size() + item(v);
            default -> 0;
        };
    }

    /** Write units of a write of {@code bytes}: one per KB, rounded up, at least one. */
    static double writeUnits(long bytes) {
        return Math.max(1, Math.ceil(bytes / WRITE_UNIT_BYTES));
    }

    /** Read units of a read of {@code bytes}: one per 4 KB rounded up (at least one), half that when eventually consistent. */
    static double readUnits(long bytes, boolean consistent) {
        return Math.max(1, Math.ceil(bytes / READ_UNIT_BYTES)) * (consistent ? 1 : 0.5);
    }

    private static long sum(JsonNode set, String type) {
        long bytes = 0;
        for (JsonNode element : set) {
            String text = element.asText();
            bytes += switch (type) {
                case "N" -> number(text);
                case "B" -> binary(text);
                default -> utf8(text);
            };
        }
        return bytes;
    }

    private static long utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    /** About one byte per two significant digits, plus one. */
    static long number(String text) {
        int digits = 0;
        boolean leading = true;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 'e' || c == 'E') {
                break;
            }
            if (c >= '0' && c <= '9') {
                if (c == '0' && leading) {
                    continue;
                }
                leading = false;
                digits++;
            }
        }
        return (Math.max(digits, 1) + 1L) / 2 + 1;
    }

    /** The decoded length of base64 text. */
    private static long binary(String base64) {
        int padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
        return Math.max(0, base64.length() / 4L * 3 - padding);
    }
}
