package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/push.sh as a person runs it, with nothing listening: it honours scripts/local.sh's
 * DATALAKE_LOCAL_MOTO_PORT, and says in one line which endpoint did not answer, with nothing else on
 * stderr (it printed SLF4J's three "no binding" lines, and "Connection refused" without the endpoint).
 */
class PushIT {
    @TempDir
    Path dir;

    @Test
    void nothingListeningIsOneLineNamingTheEndpointItTried() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path file = Files.writeString(dir.resolve("hello.log"), "hello\n");
        ProcessBuilder push = new ProcessBuilder("scripts/push.sh", "--what", "syslog", "--where", "myhost", file.toString())
                .directory(Path.of("..").toFile())
                .redirectOutput(dir.resolve("stdout").toFile()).redirectError(dir.resolve("stderr").toFile());
        push.environment().put("DATALAKE_LOCAL_MOTO_PORT", Integer.toString(port));

        Process process = push.start();

        assertEquals(true, process.waitFor(120, TimeUnit.SECONDS));
        assertEquals(1, process.exitValue());
        assertEquals("", Files.readString(dir.resolve("stdout")));
        assertEquals(List.of("error: nothing answers at http://127.0.0.1:" + port + " (Connection refused): is "
                + "scripts/local.sh running, with moto on that port? Set DATALAKE_LOCAL_MOTO_PORT as for scripts/local.sh, "
                + "or --endpoint."), Files.readAllLines(dir.resolve("stderr"), StandardCharsets.UTF_8));
    }
}
