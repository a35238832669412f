package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code scripts/X.sh --help} prints the script's usage and nothing else happens: no build, no
 * virtualenv, no tests, no JVM (local.sh --help took 57 s building the project first; test.sh --help ran
 * the tests). Every tool a script could start is a fake on PATH that leaves a mark and fails.
 */
class ScriptsHelpTest {
    private static final Path SCRIPTS = Path.of("..", "scripts").toAbsolutePath().normalize();
    private static final List<String> TOOLS = List.of("mvn", "java", "python3", "python", "pip", "sam", "apt-get",
            "curl", "aws", "taskset", "chromium");

    static Stream<String> scripts() throws IOException {
        try (Stream<Path> files = Files.list(SCRIPTS)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".sh")).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("scripts")
    void helpPrintsTheUsageAndRunsNothing(String script, @TempDir Path dir) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path marks = dir.resolve("ran");
        for (String tool : TOOLS) {
            Path fake = bin.resolve(tool);
            Files.writeString(fake, "#!/bin/sh\necho " + tool + " >> " + marks + "\nexit 1\n");
            Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        ProcessBuilder builder = new ProcessBuilder("bash", SCRIPTS.resolve(script).toString(), "--help")
                .redirectError(dir.resolve("stderr").toFile()).redirectOutput(dir.resolve("stdout").toFile());
        builder.environment().put("PATH", bin + ":/usr/bin:/bin");
        builder.environment().put("JAVA_HOME", dir.resolve("no-jdk").toString());
        builder.environment().put("DATALAKE_VENV", dir.resolve("no-venv").toString());

        Process process = builder.start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), script + " --help returns");

        String stdout = Files.readString(dir.resolve("stdout"), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), script + " --help: " + Files.readString(dir.resolve("stderr")));
        assertTrue(stdout.contains("scripts/" + script), "the usage names the script: " + stdout);
        assertEquals("", Files.readString(dir.resolve("stderr")), script + " --help prints nothing on stderr");
        assertFalse(Files.exists(marks), script + " --help ran " + (Files.exists(marks) ? Files.readString(marks) : ""));
    }
}
