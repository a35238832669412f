package datalake.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The event scripts/invoke.sh hands the function: read from a file or standard input, and checked to be JSON. */
class InvokeEventTest {
    @TempDir
    Path folder;

    private static InvokeOptions from(Path event) {
        return InvokeOptions.parse(new String[] {"QueryFunction", "--event", event.toString()}, Map.of());
    }

    private static String refused(InvokeOptions options, Invoke.StandardInput stdin) {
        return assertThrows(IllegalArgumentException.class, () -> Invoke.event(options, stdin)).getMessage();
    }

    @Test
    void aJsonFileIsHandedOverAsItIs() throws IOException {
        Path event = Files.writeString(folder.resolve("event.json"), "{\"a\": 1}");

        assertArrayEquals("{\"a\": 1}".getBytes(StandardCharsets.UTF_8), Invoke.event(from(event), () -> null));
    }

    @Test
    void everyEventThatCannotBeUsedIsOneSentenceNamingWhereItWas() throws IOException {
        Path notJson = Files.writeString(folder.resolve("notes.txt"), "not json");
        InvokeOptions stdin = InvokeOptions.parse(new String[] {"QueryFunction", "--event", "-"}, Map.of());

        assertEquals("the event in " + folder + " could not be read: Is a directory.", refused(from(folder), () -> null));
        assertEquals("there is no event file " + folder.resolve("none.json") + ".",
                refused(from(folder.resolve("none.json")), () -> null));
        assertEquals("the event in " + notJson + " is not JSON (Unrecognized token 'not': was expecting"
                + " (JSON String, Number, Array, Object or token 'null', 'true' or 'false')).", refused(from(notJson), () -> null));
        assertEquals("the event in standard input could not be read: closed.", refused(stdin, () -> {
            throw new IOException("closed");
        }));
    }
}
