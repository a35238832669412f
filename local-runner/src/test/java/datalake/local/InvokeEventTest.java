package datalake.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The event scripts/invoke.sh hands the function: read from a file or standard input, and checked to be a
 * JSON document (empty is none).
 */
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

    @Test
    void anEmptyEventIsABadArgumentNotAnInvocation() throws Exception {
        Path empty = Files.writeString(folder.resolve("empty.json"), "");
        Path blank = Files.writeString(folder.resolve("blank.json"), " \n\t\n");
        InvokeOptions stdin = InvokeOptions.parse(new String[] {"QueryFunction", "--event", "-"}, Map.of());

        assertEquals("the event in " + empty + " is empty.", refused(from(empty), () -> null));
        assertEquals("the event in " + blank + " is empty.", refused(from(blank), () -> null));
        assertEquals("the event in standard input is empty.", refused(stdin, () -> new byte[0]));
        // and scripts/invoke.sh exits 2, bad arguments, before it looks for the stack or runs the function
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, Invoke.run(new String[] {"QueryFunction", "-e", "-"}, Map.of(), () -> new byte[0],
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertEquals("error: the event in standard input is empty. (scripts/invoke.sh --help lists the options)\n",
                err.toString(StandardCharsets.UTF_8));
    }
}
