package datalake.dynamodb;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;
import java.io.UncheckedIOException;
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
    /** Reads {@link #toJson}'s tokens back as a tree, decimals as BigDecimal (as DynamoDB holds them). */
    private static final ObjectMapper TREES = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

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
     * the sets arrays, B and each of BS base64 text; an empty or unknown value null. Streamed: the query
     * API writes every value of its answers so, with no tree in between.
     */
    public static void write(JsonGenerator g, AttributeValue value) throws IOException {
        if (value == null) {
            g.writeNull();
        } else if (value.s() != null) {
            g.writeString(value.s());
        } else if (value.n() != null) {
            writeNumber(g, value.n());
        } else if (value.bool() != null) {
            g.writeBoolean(value.bool());
        } else if (value.hasM()) {
            g.writeStartObject();
            for (Map.Entry<String, AttributeValue> member : new TreeMap<>(value.m()).entrySet()) {
                g.writeFieldName(member.getKey());
                write(g, member.getValue());
            }
            g.writeEndObject();
        } else if (value.hasL()) {
            g.writeStartArray();
            for (AttributeValue element : value.l()) {
                write(g, element);
            }
            g.writeEndArray();
        } else if (value.hasSs()) {
            g.writeStartArray();
            for (String text : value.ss()) {
                g.writeString(text);
            }
            g.writeEndArray();
        } else if (value.hasNs()) {
            g.writeStartArray();
            for (String number : value.ns()) {
                writeNumber(g, number);
            }
            g.writeEndArray();
        } else if (value.b() != null) {
            g.writeString(base64(value.b()));
        } else if (value.hasBs()) {
            g.writeStartArray();
            for (SdkBytes bytes : value.bs()) {
                g.writeString(base64(bytes));
            }
            g.writeEndArray();
        } else {
            g.writeNull();
        }
    }

    /** {@link #write} as a tree (numbers as {@link java.math.BigDecimal}): the readers of records' extra fields. */
    public static JsonNode toJson(AttributeValue value) {
        try (TokenBuffer tokens = new TokenBuffer(TREES, false)) {
            tokens.forceUseOfBigDecimal(true);
            write(tokens, value);
            try (JsonParser parser = tokens.asParser(TREES)) {
                return TREES.readTree(parser);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("a stored value could not be read as JSON in memory", e);
        }
    }

    private static void writeNumber(JsonGenerator g, String number) throws IOException {
        try {
            g.writeNumber(new BigDecimal(number));
        } catch (NumberFormatException notANumber) {
            g.writeString(number);
        }
    }

    private static String base64(SdkBytes bytes) {
        return Base64.getEncoder().encodeToString(bytes.asByteArray());
    }
}
