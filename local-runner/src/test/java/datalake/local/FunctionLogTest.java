package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.lambda.JsonLog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner's console had one JSON line per request and per message (125 MB in eight minutes of load). */
class FunctionLogTest {
    @TempDir
    Path dir;

    @Test
    void everyLineGoesToTheFileAndOnlyFaultsToTheConsole() throws Exception {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        try (FunctionLog log = new FunctionLog(dir.resolve("logs/local.log"), FunctionLog.MAX_BYTES,
                new PrintStream(console, true, StandardCharsets.UTF_8))) {
            JsonLog query = log.writer("datalake.query");

            for (int i = 0; i < 1_000; i++) {
                query.info("request", g -> g.writeNumberField("status", 200));
            }
            query.warn("unreadable item", g -> { });
            query.error("request failed", g -> { });
        }

        List<String> file = Files.readAllLines(dir.resolve("logs/local.log"));
        List<String> shown = console.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(1_002, file.size());
        assertEquals(2, shown.size(), "the console shows the faults only: " + shown);
        assertTrue(shown.get(0).contains("\"level\":\"WARN\"") && shown.get(1).contains("\"level\":\"ERROR\""));
    }

    @Test
    void theFileIsBoundedRollingOverToOnePreviousFile() throws Exception {
        Path file = dir.resolve("local.log");
        try (FunctionLog log = new FunctionLog(file, 10_000, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8))) {
            for (int i = 0; i < 1_000; i++) {
                log.line("{\"level\":\"INFO\",\"message\":\"line " + i + "\"}");
            }
        }

        assertTrue(Files.size(file) <= 10_000, "the file stays under its bound: " + Files.size(file));
        assertTrue(Files.size(dir.resolve("local.log.1")) <= 10_000);
        assertTrue(Files.readString(file).contains("line 999"), "the newest lines are kept");
        try (var files = Files.list(dir)) {
            assertEquals(2, files.count(), "one previous file, no more");
        }
    }
}
