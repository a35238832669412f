package datalake.records;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ContentHashTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "''                                          | cae66941d9efbd404e4d88758ea67670",
        "abc                                         | cf4ab791c62b8d2b2109c90275287816",
        "The quick brown fox jumps over the lazy dog | 249df9a49f517ddcd37f5c897620ec73",
    })
    void knownVectors(String input, String expected) throws IOException {
        byte[] bytes = input.getBytes(StandardCharsets.UTF_8);

        assertEquals(expected, ContentHash.of(bytes));
        assertEquals(expected, ContentHash.of(new ByteArrayInputStream(bytes)));
    }

    @Test
    void streamingOverManyReadsEqualsHashingAtOnce(@TempDir Path dir) throws IOException {
        byte[] content = new byte[3 * 64 * 1024 + 17];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i * 31 + 7);
        }
        Path file = Files.write(dir.resolve("big.bin"), content);
        // A stream that hands out odd-sized chunks, as network streams do.
        InputStream trickle = new ByteArrayInputStream(content) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1000));
            }
        };

        String expected = ContentHash.of(content);
        assertEquals(expected, ContentHash.of(file));
        assertEquals(expected, ContentHash.of(trickle));
        assertEquals(32, expected.length());
    }
}
