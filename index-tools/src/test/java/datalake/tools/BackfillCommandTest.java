package datalake.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** scripts/backfill.sh's --keys-from: the file's keys, and what it refuses, in one sentence, before any call. */
class BackfillCommandTest {
    @TempDir
    Path dir;

    private static String refusal(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = BackfillCommand.run(args, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, status);
        return err.toString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow();
    }

    @Test
    void theFileGivesItsKeysOnceEachInItsOrderBlankLinesSkipped() throws IOException {
        Path file = Files.writeString(dir.resolve("retry.keys"), "data/b.log\n\ndata/a b.log\ndata/b.log\n");
        assertEquals(List.of("data/b.log", "data/a b.log"), BackfillCommand.keys(file, Target.parse("s3://bucket/data/")));
    }

    @Test
    void aFileThatCannotServeIsRefusedInOneSentence() throws IOException {
        Path outside = Files.writeString(dir.resolve("outside.keys"), "data/a.log\nother/b.log\n");
        assertEquals("backfill: the key 'other/b.log' in " + outside + " is not under s3://bucket/data/.",
                refusal("s3://bucket/data/", "--keys-from", outside.toString()));
        Path empty = Files.writeString(dir.resolve("empty.keys"), "\n");
        assertEquals("backfill: the --keys-from file " + empty + " holds no key.",
                refusal("s3://bucket/data/", "--keys-from", empty.toString()));
        Path none = dir.resolve("none.keys");
        assertEquals("backfill: there is no --keys-from file " + none + ".",
                refusal("s3://bucket/data/", "--keys-from", none.toString()));
        assertEquals("backfill: give --start-after or --keys-from, not both.",
                refusal("s3://bucket/data/", "--start-after", "data/a.log", "--keys-from", empty.toString()));
    }
}
