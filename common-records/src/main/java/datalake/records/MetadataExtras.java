package datalake.records;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fields of a metadata document beyond version 0's nine: datalake-common's {@code Metadata} is a dict
 * and keeps them, so the Python datalake stores and serves them. They are kept when DynamoDB can store them
 * in a record's {@code metadata} map, and refused in one sentence naming the field otherwise.
 *
 * <p>Each value is copied into its canonical form: a number as DynamoDB gives it back (trailing zeros
 * dropped, {@code 1.50} is {@code 1.5} and {@code 1E2} is {@code 100}), so that a file's metadata read from
 * its object equals the metadata read from its record.
 */
final class MetadataExtras {
    /** Significant digits of a DynamoDB number. */
    static final int MAX_DIGITS = 38;
    /** The decimal exponents of a DynamoDB number's first digit: 1E-130 to 9.99...E+125. */
    static final int MIN_EXPONENT = -130;
    static final int MAX_EXPONENT = 125;
    /**
     * Arrays and objects one value may nest: DynamoDB stores 32 levels of an item, its {@code metadata}
     * attribute the first and the field the second, so a field's value may open 30 more.
     */
    static final int MAX_DEPTH = 30;

    private MetadataExtras() {
    }

    /**
     * The extra fields in their given order, each checked and in canonical form; an unmodifiable copy.
     * {@link InvalidMetadataException} names the first field DynamoDB cannot store.
     */
    static Map<String, JsonNode> of(Map<String, JsonNode> given) {
        if (given == null || given.isEmpty()) {
            return Map.of();
        }
        Map<String, JsonNode> extras = new LinkedHashMap<>(given.size() * 2);
        for (Map.Entry<String, JsonNode> field : given.entrySet()) {
            String name = field.getKey() == null ? "" : field.getKey();
            if (Metadata.FIELDS.contains(name)) {
                throw new InvalidMetadataException(name, "metadata field '" + name
                        + "' is a field of version 0, not an extra field.");
            }
            Field f = new Field(name);
            f.checkName(name);
            extras.put(name, f.canonical(field.getValue(), 0));
        }
        return Collections.unmodifiableMap(extras);
    }

    /** One extra field being checked: its name for the messages. */
    private static final class Field {
        private final String shown;

        Field(String name) {
            this.shown = shown(name);
        }

        /** A name or a key: DynamoDB stores no empty one, and UTF-8 no unpaired surrogate. */
        void checkName(String name) {
            if (name.isEmpty()) {
                throw new InvalidMetadataException(shown, "metadata field '" + shown
                        + "' must not have an empty name or hold an object with an empty key, which DynamoDB cannot store.");
            }
            checkText(name);
        }

        void checkText(String text) {
            if (!MetadataRules.isUnicode(text)) {
                throw new InvalidMetadataException(shown, "metadata field '" + shown + "' must be Unicode text,"
                        + " without an unpaired surrogate (U+D800 to U+DFFF), in its name, strings and keys.");
            }
        }

        /** {@code value} at {@code depth} arrays and objects inside the field, copied in canonical form. */
        JsonNode canonical(JsonNode value, int depth) {
            if (value == null || value.isNull()) {
                return NullNode.getInstance();
            }
            switch (value.getNodeType()) {
                case STRING -> {
                    checkText(value.textValue());
                    return TextNode.valueOf(value.textValue());
                }
                case BOOLEAN -> {
                    return BooleanNode.valueOf(value.booleanValue());
                }
                case NUMBER -> {
                    return number(value);
                }
                case ARRAY -> {
                    checkDepth(depth + 1);
                    ArrayNode array = JsonNodeFactory.instance.arrayNode(value.size());
                    for (JsonNode element : value) {
                        array.add(canonical(element, depth + 1));
                    }
                    return array;
                }
                case OBJECT -> {
                    checkDepth(depth + 1);
                    ObjectNode object = JsonNodeFactory.instance.objectNode();
                    for (Map.Entry<String, JsonNode> member : value.properties()) {
                        checkName(member.getKey());
                        object.set(member.getKey(), canonical(member.getValue(), depth + 1));
                    }
                    return object;
                }
                default -> throw new InvalidMetadataException(shown, "metadata field '" + shown
                        + "' must hold a JSON value (text, a number, true, false, null, an array or an object).");
            }
        }

        private void checkDepth(int depth) {
            if (depth > MAX_DEPTH) {
                throw new InvalidMetadataException(shown, "metadata field '" + shown + "' must not nest arrays and"
                        + " objects more than " + MAX_DEPTH + " deep, so that its record fits DynamoDB's 32 levels.");
            }
        }

        /** A number as DynamoDB keeps it: an integer as the smallest integer node, else a decimal without trailing zeros. */
        private JsonNode number(JsonNode value) {
            BigDecimal exact;
            try {
                exact = value.isIntegralNumber() ? new BigDecimal(value.bigIntegerValue()) : value.decimalValue();
            } catch (NumberFormatException notFinite) {
                // a double NaN or infinity, which a caller's tree may hold (JSON text cannot)
                throw numberRefused();
            }
            if (exact.signum() == 0) {
                return IntNode.valueOf(0);
            }
            BigDecimal stripped = exact.stripTrailingZeros();
            int exponent = stripped.precision() - stripped.scale() - 1;
            if (stripped.precision() > MAX_DIGITS || exponent < MIN_EXPONENT || exponent > MAX_EXPONENT) {
                throw numberRefused();
            }
            if (stripped.scale() > 0) {
                return DecimalNode.valueOf(stripped);
            }
            BigInteger integer = stripped.toBigIntegerExact();
            // bitLength leaves out the sign: below 32 fits an int, below 64 a long
            if (integer.bitLength() < Integer.SIZE) {
                return IntNode.valueOf(integer.intValue());
            }
            return integer.bitLength() < Long.SIZE ? LongNode.valueOf(integer.longValue()) : BigIntegerNode.valueOf(integer);
        }

        private InvalidMetadataException numberRefused() {
            return new InvalidMetadataException(shown, "metadata field '" + shown + "' must hold only numbers DynamoDB"
                    + " can store: at most " + MAX_DIGITS + " significant digits, from 1E-130 to"
                    + " 9.9999999999999999999999999999999999999E+125 in magnitude.");
        }
    }

    /**
     * A field's name as a message shows it: unpaired surrogates and control characters escaped
     * ({@code \ud800}), since the message travels in reports and queue attributes that cannot carry them.
     */
    static String shown(String name) {
        StringBuilder shown = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < name.length()
                    && Character.isLowSurrogate(name.charAt(i + 1));
            if (pair) {
                shown.append(c).append(name.charAt(++i));
            } else if (Character.isSurrogate(c) || Character.isISOControl(c)) {
                shown.append(String.format("\\u%04x", (int) c));
            } else {
                shown.append(c);
            }
        }
        return shown.toString();
    }
}
