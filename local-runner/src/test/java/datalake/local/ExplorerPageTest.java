package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import datalake.emulators.StaticFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The runner serves exactly the files of explorer/, and the page loads nothing from elsewhere. */
class ExplorerPageTest {
    private static final Path DIRECTORY = Path.of("..", "explorer");

    @Test
    void everyFileOfTheExplorerDirectoryIsServed() throws IOException {
        Set<String> files = new TreeSet<>();
        try (Stream<Path> list = Files.list(DIRECTORY)) {
            list.forEach(p -> files.add(p.getFileName().toString()));
        }

        assertEquals(files, new TreeSet<>(ExplorerPage.FILES));
        Map<String, StaticFile> served = ExplorerPage.files();
        assertEquals(served.get("/index.html"), served.get("/"));
        for (String name : files) {
            assertEquals(Files.readString(DIRECTORY.resolve(name)),
                    new String(served.get("/" + name).body(), StandardCharsets.UTF_8), name);
        }
    }

    @Test
    void thePageNamesNoOtherHost() throws IOException {
        for (String name : ExplorerPage.FILES) {
            String text = Files.readString(DIRECTORY.resolve(name));
            assertFalse(text.matches("(?s).*(src|href)=\"(https?:)?//.*"), name + " loads something from elsewhere");
            assertFalse(text.contains("@import"), name);
        }
    }
}
