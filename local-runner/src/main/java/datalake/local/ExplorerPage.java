package datalake.local;

import datalake.emulators.StaticFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The explorer page (the repository's {@code explorer/}, copied onto the classpath by the build),
 * as the static files the runner serves at {@code /}. The page calls the API on its own origin.
 */
final class ExplorerPage {
    /** Every file of explorer/; ExplorerPageTest holds this list to the directory. */
    static final List<String> FILES = List.of("index.html", "explorer.css", "explorer.js");

    private ExplorerPage() {
    }

    /** Path → file: {@code /} and {@code /index.html} are the page, the others its script and style. */
    static Map<String, StaticFile> files() {
        Map<String, StaticFile> files = new LinkedHashMap<>();
        for (String name : FILES) {
            files.put("/" + name, new StaticFile(contentType(name), read(name)));
        }
        files.put("/", files.get("/index.html"));
        return files;
    }

    private static String contentType(String name) {
        if (name.endsWith(".html")) {
            return "text/html; charset=utf-8";
        }
        return name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8";
    }

    private static byte[] read(String name) {
        try (InputStream in = ExplorerPage.class.getResourceAsStream("/explorer/" + name)) {
            if (in == null) {
                throw new IllegalStateException("explorer/" + name + " is not on the classpath; build local-runner with Maven.");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
