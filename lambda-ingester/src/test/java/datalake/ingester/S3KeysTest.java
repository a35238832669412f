package datalake.ingester;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class S3KeysTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "plain/key.csv|plain/key.csv",
        "red+flower.jpg|red flower.jpg",
        "a%2Bb.txt|a+b.txt",
        "c%2B%2B+notes.md|c++ notes.md",
        "caf%C3%A9.txt|café.txt",
        "%E2%82%AC100|€100",
        "%F0%9F%98%80.png|😀.png",
        "%e2%82%ac|€",
        "dt%3D2024-05-14/_SUCCESS|dt=2024-05-14/_SUCCESS",
        "100%25+done|100% done",
        "%2Fleading|/leading",
    })
    void decodesFormUrlEncoding(String encoded, String key) {
        assertEquals(key, S3Keys.decode(encoded));
    }

    @Test
    void keysWithoutEscapesAreReturnedAsTheyAre() {
        String key = "2024/05/14/sensor-1.csv";

        assertSame(key, S3Keys.decode(key));
    }

    @Test
    void roundTripsWhatAFormEncoderWrites() {
        String key = "données/übersicht 2024+05 (final) – 東京.csv";

        assertEquals(key, S3Keys.decode(URLEncoder.encode(key, StandardCharsets.UTF_8)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"bad%", "bad%2", "bad%zz", "bad%2g", "%C3%28", "%FF", "%E2%82"})
    void rejectsBrokenEscapesAndInvalidUtf8(String encoded) {
        assertThrows(IllegalArgumentException.class, () -> S3Keys.decode(encoded));
    }
}
