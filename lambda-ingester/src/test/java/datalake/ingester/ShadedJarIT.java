package datalake.ingester;

import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The deployable jar as Lambda runs it: its own class path (nothing from the build), the handler's
 * no-argument constructor, configuration and endpoints from the environment only. Shading mistakes
 * (a lost service file, a missing class) and configuration mistakes show up here.
 */
@ExtendWith(EmulatorsExtension.class)
class ShadedJarIT {
        static final Emulators AWS = Emulators.shared();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theLambdaJarIngestsABatchConfiguredFromTheEnvironmentAlone(@TempDir Path dir) throws Exception {
        // given a stack with an upload and a poison message, their bodies as the queue delivered them
        try (IngesterHarness s = IngesterHarness.create(Emulators.shared(), "shaded")) {
            s.put("jar/f 1.log", metadata("jarfile", START, null));
            s.send("not JSON");
            List<String> files = new ArrayList<>();
            for (Message message : s.receive(2)) {
                Path body = dir.resolve("body" + files.size() + ".json");
                Files.writeString(body, message.body());
                files.add(body.toString());
            }

            // when the jar handles them in a JVM of its own, configured by environment variables
            Path jar = lambdaJar();
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
                    "-cp", jar + File.pathSeparator + testClasses(), ShadedJarMain.class.getName()));
            command.addAll(files);
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            Map<String, String> env = builder.environment();
            env.keySet().removeIf(k -> k.startsWith("AWS_") || k.startsWith("DATALAKE_"));
            // the template's environment of the function, with the emulators' endpoints and its role's keys
            env.putAll(s.stack.ingester().environment());
            Process process = builder.start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), output);

            // then the upload is indexed, the poison message dead-lettered, nothing handed back
            assertEquals(0, process.exitValue(), output);
            assertTrue(output.contains("failed:\n") || output.lines().anyMatch("failed:"::equals), output);
            assertEquals("s3://" + s.bucket() + "/jar/f 1.log", s.records().get(0).url());
            assertEquals("BadJson", s.deadLetters(1).get(0).messageAttributes().get("error_kind").stringValue());
            assertEquals(2, s.reports(2).size());
            // and it logged JSON lines, with metrics for the function
            List<JsonNode> lines = new ArrayList<>();
            for (String line : output.lines().toList()) {
                if (line.startsWith("{")) {
                    lines.add(JSON.readTree(line));
                }
            }
            assertEquals(1, lines.stream().filter(l -> "message handled".equals(l.path("message").asText())).count(), output);
            assertEquals(1, lines.stream().filter(l -> "batch handled".equals(l.path("message").asText())
                    && l.path("messages").asInt() == 2 && l.path("failed").asInt() == 1).count(), output);
            assertTrue(lines.stream().anyMatch(l -> s.stack.ingester().functionName().equals(l.path("Function").asText())
                    && l.path("Messages").asInt() == 2), output);
        }
    }

    private static Path lambdaJar() throws Exception {
        try (var files = Files.list(Path.of("target"))) {
            return files.filter(p -> p.getFileName().toString().endsWith("-lambda.jar")).findFirst()
                    .orElseThrow(() -> new AssertionError("no target/*-lambda.jar: run mvn package first")).toAbsolutePath();
        }
    }

    private static Path testClasses() throws Exception {
        return Path.of(ShadedJarMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
