package datalake.emulators;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * A git-ignored folder of tools that a script of scripts/lib installs at the repository root (the test
 * virtualenv, dynalite's node_modules): a system property, else an environment variable, else the folder
 * in the repository root (the first directory, walking up from the working directory, that holds
 * {@code .ci}). The same rules as the scripts.
 */
record ToolFolder(String property, String environment, String name) {
    static final ToolFolder VIRTUAL_ENV = new ToolFolder("datalake.venv", "DATALAKE_VENV", ".venv");
    static final ToolFolder DYNALITE = new ToolFolder("datalake.dynalite", "DATALAKE_DYNALITE", ".dynalite");

    Path locate() {
        return locate(System::getProperty, System::getenv, Path.of("").toAbsolutePath());
    }

    Path locate(Function<String, String> properties, Function<String, String> environments, Path workingDir) {
        String fromProperty = properties.apply(property);
        if (fromProperty != null && !fromProperty.isBlank()) {
            return Path.of(fromProperty).toAbsolutePath();
        }
        String fromEnvironment = environments.apply(environment);
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return Path.of(fromEnvironment).toAbsolutePath();
        }
        for (Path dir = workingDir.toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve(".ci"))) {
                return dir.resolve(name);
            }
        }
        return workingDir.toAbsolutePath().resolve(name);
    }
}
