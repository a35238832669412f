package datalake.emulators.template;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where this repository is: the first directory, walking up from the working directory, that holds {@code .ci}. */
public final class Repository {
    private Repository() {
    }

    /** The repository root; the working directory when no parent holds {@code .ci} (an unusual checkout). */
    public static Path root() {
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve(".ci"))) {
                return dir;
            }
        }
        return start;
    }

    /** The repository's template.yaml. */
    public static Path template() {
        return root().resolve("template.yaml");
    }
}
