package datalake.emulators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Emulators end with the JVM that started them, even one killed outright (kill -9, a test fork's
 * timeout, the out-of-memory killer), which runs no shutdown hook: each launcher exits when its stdin,
 * the pipe from that JVM, ends. Otherwise node and python would keep running, holding ports and memory.
 */
class KilledJvmIT {

    /** The JVM to kill: starts dynalite and moto, says so, and waits. */
    public static final class StartsEmulators {
        public static void main(String[] args) throws InterruptedException {
            new Dynalite().start();
            new MotoServer().start();
            System.out.println("started");
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    @Test
    void theEmulatorsOfAJvmKilledOutrightExitWithIt() throws Exception {
        // given a JVM running dynalite and moto
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process jvm = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                StartsEmulators.class.getName()).redirectErrorStream(true).start();
        List<ProcessHandle> emulators = new ArrayList<>();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8));
            List<String> lines = new ArrayList<>();
            for (String line = out.readLine(); line != null && !line.equals("started"); line = out.readLine()) {
                lines.add(line);
            }
            assertTrue(jvm.isAlive(), "the JVM started both emulators: " + lines);
            emulators.addAll(jvm.toHandle().descendants().toList());
            assertTrue(emulators.size() >= 2, "node and python run under it: " + emulators);

            // when it is killed with SIGKILL
            jvm.destroyForcibly();
            jvm.waitFor(10, TimeUnit.SECONDS);

            // then every emulator process exits within seconds
            List<String> left = new ArrayList<>();
            for (ProcessHandle emulator : emulators) {
                try {
                    emulator.onExit().get(15, TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    left.add(emulator.pid() + " " + emulator.info().command().orElse("?"));
                }
            }
            assertEquals(List.of(), left, "emulator processes left running after their JVM was killed");
        } finally {
            jvm.destroyForcibly();
            emulators.forEach(ProcessHandle::destroyForcibly);
        }
    }
}
