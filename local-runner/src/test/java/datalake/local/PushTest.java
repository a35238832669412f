package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import datalake.emulators.template.SamTransform;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PushTest {
    @Test
    void theDefaultBucketIsTheLocalStacksBucket() {
        // scripts/local.sh builds template.yaml's stack with its defaults (moto's account, us-east-1)
        String bucket = SamTransform.repositoryTemplate().resolve().build().ref("StorageBucket");
        assertEquals(bucket, Push.LOCAL_BUCKET);
    }

    @Test
    void aPrefixGivesTheBucketTheTemplateNamesWithIt() {
        String bucket = SamTransform.repositoryTemplate().resolve().parameter("NamePrefix", "other-stack").build()
                .ref("StorageBucket");
        assertEquals(bucket, PushOptions.localBucket("other-stack"));
    }

    @Test
    void theEndpointAndBucketFollowScriptsLocalShsVariablesUnlessGiven() {
        String[] files = {"--what", "syslog", "--where", "myhost", "a.log"};
        PushOptions defaults = PushOptions.parse(files, Map.of());
        PushOptions variables = PushOptions.parse(files, Map.of("DATALAKE_LOCAL_MOTO_PORT", "5311",
                "DATALAKE_LOCAL_PREFIX", "other-stack"));
        PushOptions flags = PushOptions.parse(new String[] {"--endpoint", "http://127.0.0.1:7000", "--bucket", "b-1",
            "--what", "syslog", "--where", "myhost", "a.log", "b.log"}, Map.of("DATALAKE_LOCAL_MOTO_PORT", "5311"));

        assertEquals(URI.create("http://127.0.0.1:5000"), defaults.endpoint());
        assertEquals(Push.LOCAL_BUCKET, defaults.bucket());
        assertEquals(URI.create("http://127.0.0.1:5311"), variables.endpoint());
        assertEquals("other-stack-123456789012-us-east-1", variables.bucket());
        assertEquals(URI.create("http://127.0.0.1:7000"), flags.endpoint());
        assertEquals("b-1", flags.bucket());
        assertEquals(List.of(Path.of("a.log"), Path.of("b.log")), flags.paths());
    }

    @Test
    void badArgumentsAreOneSentenceEach() {
        assertEquals("DATALAKE_LOCAL_MOTO_PORT must be a port number, not \"moto\".", assertThrows(IllegalArgumentException.class,
                () -> PushOptions.parse(new String[] {"--what", "a", "--where", "b", "f"},
                        Map.of("DATALAKE_LOCAL_MOTO_PORT", "moto"))).getMessage());
        assertEquals("--what, --where and at least one FILE or DIRECTORY are required.",
                assertThrows(IllegalArgumentException.class, () -> PushOptions.parse(new String[] {"--what", "a", "f"},
                        Map.of())).getMessage());
        assertEquals("unknown option --help.", assertThrows(IllegalArgumentException.class,
                () -> PushOptions.parse(new String[] {"--help"}, Map.of())).getMessage());
    }

    @Test
    void aFileModifiedAfterEndIsNamedAndRefusedAlone(@TempDir Path dir) throws Exception {
        // given a file modified after the --end given, and no --start (a file starts at its modification time)
        Path file = Files.writeString(dir.resolve("late.log"), "late");
        Files.setLastModifiedTime(file, FileTime.fromMillis(1_700_000_000_000L));
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        // when it is pushed (nothing listens at the endpoint: the file must not get that far)
        int status = Push.run(new String[] {"--what", "a", "--where", "b", "--end", "2023-01-01", "--endpoint",
                "http://127.0.0.1:9", file.toString()}, Map.of(), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        // then that file is refused by name, as a failure of its own rather than of the whole batch
        assertEquals(1, status);
        assertEquals("error: " + file + " was not pushed: it starts at its modification time, 2023-11-14T22:13:20.000Z,"
                + " after --end 2023-01-01T00:00:00.000Z; give --start too.", err.toString(StandardCharsets.UTF_8).strip());
    }

    @Test
    void aDirectoryStandsForEveryFileUnderIt(@TempDir Path dir) throws Exception {
        Path sub = Files.createDirectories(dir.resolve("b"));
        Path one = Files.writeString(dir.resolve("a.log"), "a");
        Path two = Files.writeString(sub.resolve("c.log"), "c");

        assertEquals(List.of(one, two), Push.files(List.of(dir)));
        assertEquals("the directories named hold no files.", assertThrows(IllegalArgumentException.class,
                () -> Push.files(List.of(Files.createDirectories(dir.resolve("empty"))))).getMessage());
        assertEquals(dir.resolve("missing") + " is not a readable file or directory.", assertThrows(
                IllegalArgumentException.class, () -> Push.files(List.of(dir.resolve("missing")))).getMessage());
    }
}
