package datalake.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * JSON values as DynamoDB attribute values and back: the ingester writes metadata fields beyond version
 * 0's nine into a record's {@code metadata} map with it, the readers of records (the ingester, the tools)
 * read them back, and the query API writes every stored value of its answers through it.
 */
public final class AttributeJson {
    private AttributeJson() {
    }

    /**
     * A JSON value with its natural DynamoDB type: a string S, a number N, true and false BOOL, null NULL,
     * an array L, an object M. The value must be one DynamoDB can store, as {@code Metadata}'s extra fields are.
     */
    public static AttributeValue toAttribute(JsonNode value) {
        if (value == null || value.isNull()) {
            return AttributeValue.fromNul(true);
        }
        switch (value.getNodeType()) {
            case STRING -> {
                return AttributeValue.fromS(value.textValue());
            }
            case NUMBER -> {
                return AttributeValue.fromN(value.isIntegralNumber() ? value.bigIntegerValue().toString()
                        : value.decimalValue().toString());
            }
            case BOOLEAN -> {
                return AttributeValue.fromBool(value.booleanValue());
            }
            case ARRAY -> {
                List<AttributeValue> list = new ArrayList<>(value.size());
                value.forEach(element -> list.add(toAttribute(element)));
                return AttributeValue.fromL(list);
            }
            case OBJECT -> {
                Map<String, AttributeValue> map = new LinkedHashMap<>(value.size() * 2);
                value.properties().forEach(member -> map.put(member.getKey(), toAttribute(member.getValue())));
                return AttributeValue.fromM(map);
            }
            default -> throw new IllegalArgumentException("a " + value.getNodeType() + " node is not a JSON value.");
        }
    }

    /**
     * A stored value as JSON, as stored: N a number exactly as written (or its text, if it is none), S a
     * string, BOOL true or false, NULL null, M an object (members by name: DynamoDB keeps no order), L and
     * the sets arrays, B and each of BS base64 text; an empty or unknown value null.
     */
    public static JsonNode toJson(AttributeValue value) {
        if (value == null) {
            return NullNode.getInstance();
        } else if (value.s() != null) {
            return TextNode.valueOf(value.s());
        } else if (value.n() != null) {
            return number(value.n());
        } else if (value.bool() != null) {
            return BooleanNode.valueOf(value.bool());
        } else if (value.hasM()) {
            ObjectNode object = JsonNodeFactory.instance.objectNode();
            new TreeMap<>(value.m()).forEach((name, member) -> object.set(name, toJson(member)));
            return object;
        } else if (value.hasL()) {
            ArrayNode array = JsonNodeFactory.instance.arrayNode(value.l().size());
            value.l().forEach(element -> array.add(toJson(element)));
            return array;
        } else if (value.hasSs()) {
            ArrayNode array = JsonNodeFactory.instance.arrayNode(value.ss().size());
            value.ss().forEach(array::add);
            return array;
        } else if (value.hasNs()) {
            ArrayNode array = JsonNodeFactory.instance.arrayNode(value.ns().size());
            value.ns().forEach(n -> array.add(number(n)));
            return array;
        } else if (value.b() != null) {
            return TextNode.valueOf(base64(value.b()));
        } else if (value.hasBs()) {
            ArrayNode array = JsonNodeFactory.instance.arrayNode(value.bs().size());
            value.bs().forEach(b -> array.add(base64(b)));
            return array;
        }
        return NullNode.getInstance();
    }

    private static JsonNode number(String number) {
        try {
            return DecimalNode.valueOf(new BigDecimal(number));
        } catch (NumberFormatException notANumber) {
            return TextNode.valueOf(number);
        }
    }

    private static String base64(SdkBytes bytes) {
        return Base64.getEncoder().encodeToString(bytes.asByteArray());
    }
}
