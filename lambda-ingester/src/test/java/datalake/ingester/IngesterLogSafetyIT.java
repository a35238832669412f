package datalake.ingester;

import static datalake.ingester.TestFiles.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The ingester's logs carry identifiers (what, where, id, the object's url) but never other metadata
 * values (path, hash, work_id) nor object contents, and every line is one JSON document: metadata or
 * keys with newlines and quotes stay inside a JSON string and cannot forge a line. That holds for the
 * batch's line too, which names each failed message with its reason.
 */
@ExtendWith(EmulatorsExtension.class)
class IngesterLogSafetyIT {
        static final Emulators AWS = Emulators.shared();
    private static final String PATH = "/srv/secret-path-7f3a/a\\\"\\n{\\\"forged\\\":1}.bin";
    private static final String HASH = "feedfacecafebeef0123456789abcdef";
    private static final String WORK_ID = "secret-work-9c1d";
    private static final String CONTENT = "CONTENT-SECRET-42";
    private IngesterHarness stack;

    @AfterEach
    void close() {
        stack.close();
    }

    private static JsonNode readTree(ObjectMapper json, String line) {
        try {
            return json.readTree(line);
        } catch (java.io.IOException e) {
            throw new AssertionError(line, e);
        }
    }

    private static String metadata(String where, String id, String path, String workId) {
        return "{\"version\":0,\"start\":" + START + ",\"end\":null,\"path\":\"" + path + "\",\"work_id\":\"" + workId
                + "\",\"where\":\"" + where + "\",\"what\":\"syslog\",\"id\":\"" + id + "\",\"hash\":\"" + HASH + "\"}";
    }

    private void put(String key, String metadata) {
        AWS.s3().putObject(r -> r.bucket(stack.bucket()).key(key).metadata(Map.of("datalake", metadata)),
                RequestBody.fromString(CONTENT + " of " + key));
    }

    @Test
    void logsAreJsonLinesWithoutMetadataValuesOrContent() throws Exception {
        // given files whose path, hash, work_id and content are distinctive, some made to break lines
        stack = IngesterHarness.create(Emulators.shared(), "log-safety");
        put("good.log", metadata("web", "good", PATH, WORK_ID));
        put("bad-where.log", metadata("Evil\\n{\\\"forged\\\":1}\\\"", "badwhere", PATH, WORK_ID));
        put("bad-id.log", metadata("web", "bad id\\n{\\\"forged\\\":1}", PATH, WORK_ID));
        put("bad-work.log", metadata("web", "badwork", PATH, WORK_ID + " Not\\nA Slug"));
        put("evil\"},{\"forged\":1}.log", metadata("web", "evilkey", PATH, WORK_ID));
        put("not-json.log", "{\"path\":\"" + PATH + "\",\"work_id\":\"" + WORK_ID + "\"");
        stack.send("not JSON\n{\"forged\":1} " + WORK_ID);

        // when the ingester handles them
        stack.handle(stack.receive(7));

        // then every log line is one JSON object, none forged, and no secret value is in any
        ObjectMapper json = new ObjectMapper();
        List<String> lines = stack.logLines.stream().flatMap(String::lines).toList();
        assertTrue(lines.size() >= 8, String.join("\n", lines));
        assertEquals(stack.logLines.size(), lines.size(), "no line holds a line break");
        for (String line : lines) {
            JsonNode node = json.readTree(line);
            assertTrue(node.isObject(), line);
            assertFalse(node.has("forged"), line);
        }
        String logs = String.join("\n", lines);
        for (String secret : List.of("secret-path-7f3a", HASH, WORK_ID, CONTENT)) {
            assertFalse(logs.contains(secret), secret + " in\n" + logs);
        }
        // and the batch's one line names the failed messages with their reasons, no secret among them either
        JsonNode batch = lines.stream().map(line -> readTree(json, line))
                .filter(node -> node.path("message").asText().equals("batch handled")).findFirst().orElseThrow();
        assertEquals(7, batch.path("messages").asInt(), batch.toString());
        assertEquals(batch.path("messages").asInt() - batch.path("succeeded").asInt(), batch.path("failures").size(),
                batch.toString());
        assertTrue(batch.path("failures").size() >= 4, batch.toString());
    }
}
