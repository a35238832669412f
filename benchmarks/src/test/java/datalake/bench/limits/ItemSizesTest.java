package datalake.bench.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class ItemSizesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void anAttributeIsItsNameAndItsValue() throws Exception {
        assertEquals(2 + 3, ItemSizes.item(json("{\"pk\":{\"S\":\"abc\"}}")));
        assertEquals(1 + 5, ItemSizes.item(json("{\"s\":{\"S\":\"\u00e9t\u00e9\"}}")), "UTF-8 bytes, not characters");
        assertEquals((1 + 1) + (1 + 1) + (1 + 4), ItemSizes.item(json("{\"b\":{\"BOOL\":true},\"n\":{\"NULL\":true},\"x\":{\"B\":\"AAECAw==\"}}")));
    }

    @Test
    void aNumberTakesAByteForTwoSignificantDigitsPlusOne() {
        assertEquals(4, ItemSizes.number("12345"));
        assertEquals(4, ItemSizes.number("-123.45"));
        assertEquals(2, ItemSizes.number("0.001"));
        assertEquals(8, ItemSizes.number("1704067200000"));
        assertEquals(2, ItemSizes.number("0"));
    }

    @Test
    void listsAndMapsAddTheirOverheads() throws Exception {
        // a list: 3 + (1 + 1) + (1 + 2); a map: 3 + 1 per entry + "k" + "v"
        assertEquals(1 + 3 + 2 + 3, ItemSizes.item(json("{\"l\":{\"L\":[{\"S\":\"a\"},{\"S\":\"bc\"}]}}")));
        assertEquals(1 + 3 + 1 + 1 + 1, ItemSizes.item(json("{\"m\":{\"M\":{\"k\":{\"S\":\"v\"}}}}")));
        assertEquals(2 + 4, ItemSizes.item(json("{\"ss\":{\"SS\":[\"ab\",\"cd\"]}}")));
    }

    @Test
    void unitsRoundUpAndNeverFallToZero() {
        assertEquals(1, ItemSizes.writeUnits(0));
        assertEquals(1, ItemSizes.writeUnits(1024));
        assertEquals(2, ItemSizes.writeUnits(1025));
        assertEquals(0.5, ItemSizes.readUnits(0, false));
        assertEquals(1, ItemSizes.readUnits(4097, false));
        assertEquals(2, ItemSizes.readUnits(4097, true));
    }

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }
}
