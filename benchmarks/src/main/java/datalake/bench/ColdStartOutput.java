package datalake.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The lines a cold-start child prints for its parent, on standard error (the handlers log on standard output). */
final class ColdStartOutput {
    static final String PREFIX = "coldstart: ";

    private ColdStartOutput() {
    }

    static void line(String text) {
        System.err.println(PREFIX + text);
        System.err.flush();
    }

    /** VmHWM, the resident set's high-water mark, from /proc (Linux); nothing elsewhere. */
    static void peakRss() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (Files.isReadable(status)) {
            for (String l : Files.readAllLines(status)) {
                if (l.startsWith("VmHWM:")) {
                    line("peak_rss_kb=" + l.replaceAll("[^0-9]", ""));
                }
            }
        }
    }
}
