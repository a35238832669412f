package datalake.emulators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VirtualEnvTest {
    @TempDir Path repo;

    @Test
    void systemPropertyWinsOverEnvironmentAndWalkUp() throws Exception {
        Files.createDirectories(repo.resolve(".ci"));

        Path venv = ToolFolder.VIRTUAL_ENV.locate(
                Map.of("datalake.venv", "/opt/venv-a")::get, Map.of("DATALAKE_VENV", "/opt/venv-b")::get, repo);

        assertEquals(Path.of("/opt/venv-a"), venv);
    }

    @Test
    void environmentWinsOverWalkUp() throws Exception {
        Files.createDirectories(repo.resolve(".ci"));

        Path venv = ToolFolder.VIRTUAL_ENV.locate(k -> null, Map.of("DATALAKE_VENV", "/opt/venv-b")::get, repo);

        assertEquals(Path.of("/opt/venv-b"), venv);
    }

    @Test
    void withoutSettingsTheVenvIsInTheRepositoryRootFoundByItsCiDirectory() throws Exception {
        Files.createDirectories(repo.resolve(".ci"));
        Path module = Files.createDirectories(repo.resolve("lambda-ingester"));

        Path venv = ToolFolder.VIRTUAL_ENV.locate(k -> null, k -> null, module);

        assertEquals(repo.resolve(".venv"), venv);
    }

    @Test
    void missingMotoServerSaysHowToInstallIt() {
        MotoServer moto = new MotoServer(repo.resolve(".venv"), 0, Duration.ofSeconds(5));

        EmulatorNotInstalledException e = assertThrows(EmulatorNotInstalledException.class, moto::start);

        assertEquals("moto_server not found in " + repo.resolve(".venv").resolve("bin")
                + "; run scripts/lib/venv.sh (scripts/test.sh does it) to install the test virtualenv.", e.getMessage());
    }
}
