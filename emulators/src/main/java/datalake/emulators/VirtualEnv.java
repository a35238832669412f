package datalake.emulators;

import java.nio.file.Files;
import java.nio.file.Path;

/** The test virtualenv ({@link ToolFolder#VIRTUAL_ENV}: {@code datalake.venv}, {@code DATALAKE_VENV}, {@code .venv}). */
final class VirtualEnv {
    private VirtualEnv() {}

    static Path locate() {
        return ToolFolder.VIRTUAL_ENV.locate();
    }

    /** The moto_server launcher inside {@code venv} (bin/ on Unix, Scripts\ on Windows), existing or not. */
    static Path motoServer(Path venv) {
        Path windows = venv.resolve("Scripts").resolve("moto_server.exe");
        return Files.exists(windows) ? windows : venv.resolve("bin").resolve("moto_server");
    }
}
