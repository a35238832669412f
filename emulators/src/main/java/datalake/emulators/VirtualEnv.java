package datalake.emulators;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * Where the test virtualenv is: system property {@code datalake.venv}, else environment variable
 * {@code DATALAKE_VENV}, else {@code .venv} in the repository root (the first directory, walking up
 * from the working directory, that holds {@code .ci}). The same rules as scripts/lib/venv.sh.
 */
final class VirtualEnv {
    static final String PROPERTY = "datalake.venv";
    static final String ENVIRONMENT = "DATALAKE_VENV";

    private VirtualEnv() {}

    static Path locate() {
        return locate(System::getProperty, System::getenv, Path.of("").toAbsolutePath());
    }

    static Path locate(Function<String, String> properties, Function<String, String> environment, Path workingDir) {
        String fromProperty = properties.apply(PROPERTY);
        if (fromProperty != null && !fromProperty.isBlank()) {
            return Path.of(fromProperty).toAbsolutePath();
        }
        String fromEnvironment = environment.apply(ENVIRONMENT);
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return Path.of(fromEnvironment).toAbsolutePath();
        }
        for (Path dir = workingDir.toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve(".ci"))) {
                return dir.resolve(".venv");
            }
        }
        return workingDir.toAbsolutePath().resolve(".venv");
    }

    /** The moto_server launcher inside {@code venv} (bin/ on Unix, Scripts\ on Windows), existing or not. */
    static Path motoServer(Path venv) {
        Path windows = venv.resolve("Scripts").resolve("moto_server.exe");
        return Files.exists(windows) ? windows : venv.resolve("bin").resolve("moto_server");
    }
}
