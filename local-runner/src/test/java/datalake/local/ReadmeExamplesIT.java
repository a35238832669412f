package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.emulators.MotoServer;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every command of the README's code blocks that talks to the local runner (its API on 127.0.0.1:8080,
 * scripts/push.sh) runs verbatim, in bash, from the repository's root, against a runner with the demo
 * data, and answers something: no empty list, no error. Only the ports differ (the runner takes free
 * ones): 8080 and 5000 in the text become the runner's, and scripts/push.sh finds its moto through
 * DATALAKE_LOCAL_MOTO_PORT as a person on other ports would set it. So the README and the demo data
 * cannot drift apart again (its time-range example once returned an empty list).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReadmeExamplesIT {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern BLOCK = Pattern.compile("(?ms)^```sh\\n(.*?)^```");

    @TempDir
    static Path home;
    private RunnerHarness runner;

    @BeforeAll
    void startRunner() throws Exception {
        // The default prefix, so that the README's bucket name is the runner's.
        runner = RunnerHarness.start("datalake");
    }

    @AfterAll
    void stopRunner() {
        if (runner != null) {
            runner.close();
        }
    }

    /** The README's code blocks that use the local runner, in order. */
    static List<String> blocks() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
        List<String> blocks = new ArrayList<>();
        Matcher m = BLOCK.matcher(readme);
        while (m.find()) {
            if (m.group(1).contains("127.0.0.1:8080") || m.group(1).contains("scripts/push.sh")) {
                blocks.add(m.group(1));
            }
        }
        return blocks;
    }

    @ParameterizedTest
    @MethodSource("blocks")
    void everyCommandOfTheBlockAnswersWithData(String block) throws Exception {
        List<String> commands = block.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        assertFalse(commands.isEmpty());
        URI api = URI.create(runner.api);
        URI s3 = URI.create(runner.s3);
        StringBuilder script = new StringBuilder("set -e\n");
        for (int i = 0; i < commands.size(); i++) {
            String command = commands.get(i).replace("127.0.0.1:8080", api.getAuthority())
                    .replace("127.0.0.1:5000", s3.getAuthority())
                    .replace(".venv/bin/", MotoServer.defaultVirtualEnv().resolve("bin") + "/");
            script.append(command).append("\necho '@@@ ").append(i).append("'\n");
        }
        ProcessBuilder bash = new ProcessBuilder("bash", "-c", script.toString()).directory(ROOT.toFile())
                .redirectErrorStream(true);
        Map<String, String> env = bash.environment();
        env.keySet().removeIf(name -> name.startsWith("AWS_") || name.startsWith("DATALAKE_"));
        env.put("HOME", home.toString());
        env.put("DATALAKE_LOCAL_MOTO_PORT", Integer.toString(s3.getPort()));
        env.put("DATALAKE_VENV", MotoServer.defaultVirtualEnv().toString());
        Process process = bash.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS));

        String[] answers = output.split("@@@ \\d+\\n", -1);
        assertEquals(0, process.exitValue(), "the block ran to its end:\n" + block + "\n--- output:\n" + output);
        for (int i = 0; i < commands.size(); i++) {
            String command = commands.get(i);
            String answer = answers[i].strip();
            if (command.startsWith("export ") || command.startsWith("unset ")) {
                continue;
            }
            assertFalse(answer.isEmpty(), command + " answers something");
            assertFalse(answer.contains("\"records\":[]"), command + " answers data: " + answer);
            assertFalse(answer.contains("\"code\":"), command + " answers no error: " + answer);
        }
    }
}
