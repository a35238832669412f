package datalake.tools;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file of writes per table key and second, as the partition model ({@code KeyCounts} in the emulators)
 * and {@code scripts/scale_sim.py --emit-counts} write it: the header {@value #HEADER}, then one line a key
 * and second with writes ({@code 20454:what01,17,412}). The key comes first and may hold commas (an
 * object's URL); the second is any counter of seconds.
 */
final class CountsFile {
    static final String HEADER = "key,second,writes";

    private CountsFile() {
    }

    /**
     * The file's counts, each times {@code factor} (a run whose rates were divided by it, as scripts/bench.sh's
     * part 8 divides by 40); {@link IllegalArgumentException} with the line that is wrong.
     */
    static WriteCounts read(Path file, double factor) throws IOException {
        WriteCounts counts = new WriteCounts(1);
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String header = in.readLine();
            if (header == null || !header.strip().equals(HEADER)) {
                throw new IllegalArgumentException(file + " does not start with the line \"" + HEADER + "\".");
            }
            String line;
            int number = 1;
            while ((line = in.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                int last = line.lastIndexOf(',');
                int middle = last <= 0 ? -1 : line.lastIndexOf(',', last - 1);
                try {
                    if (middle <= 0) {
                        throw new NumberFormatException();
                    }
                    long second = Long.parseLong(line.substring(middle + 1, last).strip());
                    long writes = Long.parseLong(line.substring(last + 1).strip());
                    if (writes < 0) {
                        throw new NumberFormatException();
                    }
                    counts.add(line.substring(0, middle), second, Math.round(writes * factor));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(file + " line " + number + " is not \"key,second,writes\""
                            + " with whole numbers: " + line);
                }
            }
        }
        return counts;
    }
}
