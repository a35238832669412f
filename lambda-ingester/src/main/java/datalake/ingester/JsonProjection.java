package datalake.ingester;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Map;

/**
 * The fields of a JSON document worth reading: a tree is built for those alone, every other value
 * is skipped by the streaming parser without being decoded. A notification is mostly signatures,
 * identities and request ids the ingester never looks at; not building them is most of the
 * translation path's speed. A projection applies to each element of an array.
 */
final class JsonProjection {
    /** Read the whole value. */
    static final JsonProjection ALL = new JsonProjection(null);

    private final Map<String, JsonProjection> fields;

    private JsonProjection(Map<String, JsonProjection> fields) {
        this.fields = fields;
    }

    /** An object projection: only these fields, each with its own projection. */
    static JsonProjection of(Map<String, JsonProjection> fields) {
        return new JsonProjection(Map.copyOf(fields));
    }

    /** The projected value at the parser's current token; the parser ends on the value's last token. */
    JsonNode read(JsonParser parser, ObjectMapper mapper) throws IOException {
        JsonToken token = parser.currentToken();
        if (fields == null || (token != JsonToken.START_OBJECT && token != JsonToken.START_ARRAY)) {
            return mapper.readTree(parser);
        }
        if (token == JsonToken.START_ARRAY) {
            ArrayNode array = mapper.createArrayNode();
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                array.add(read(parser, mapper));
            }
            return array;
        }
        ObjectNode object = mapper.createObjectNode();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonProjection field = fields.get(name);
            parser.nextToken();
            if (field == null) {
                parser.skipChildren();
            } else {
                object.set(name, field.read(parser, mapper));
            }
        }
        return object;
    }
}
