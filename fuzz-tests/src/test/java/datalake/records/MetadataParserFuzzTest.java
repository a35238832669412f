package datalake.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * The S3 user metadata {@code datalake} is written by whoever uploads: any text must either parse into
 * metadata that obeys version 0, or fail with {@link InvalidMetadataException} naming a field and a rule
 * in one sentence. Nothing else may come out (no Jackson, number or date exception).
 */
class MetadataParserFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void onlyInvalidMetadataComesOut(byte[] input) {
        String json = new String(input, StandardCharsets.UTF_8);
        Metadata metadata;
        try {
            metadata = MetadataParser.parse(json);
        } catch (InvalidMetadataException e) {
            assertTrue(e.getMessage() != null && e.getMessage().endsWith("."), e.getMessage());
            return;
        }
        // What parses is valid, and its normalised form reads back as the same metadata.
        assertTrue(metadata.end() == null || metadata.end() >= metadata.start(), json);
        assertEquals(metadata, DatalakeJson.parseMetadata(DatalakeJson.toJson(metadata)), json);
    }
}
