package datalake.local;

import datalake.emulators.Emulators;
import datalake.records.InvalidMetadataException;
import datalake.records.Times;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@code scripts/push.sh}: uploads one local file with its datalake metadata to the local bucket,
 * as the datalake client's {@code push} does (key {@code <id>/data}, BLAKE2b-128 hash, metadata in
 * {@code x-amz-meta-datalake}); the running pipeline then indexes it.
 */
public final class Push {
    static final String USAGE = """
            usage: scripts/push.sh --what WHAT --where WHERE [--start TIME] [--end TIME] [--work-id ID]
                                   [--endpoint URL] [--bucket NAME] FILE
              TIME is ms or seconds since the epoch, or ISO-8601; --start defaults to the file's modification
              time, --end to none (an instant). --endpoint defaults to http://127.0.0.1:5000 (moto),
              --bucket to the local stack's, datalake-123456789012-us-east-1.""";
    /** The bucket of scripts/local.sh's stack: template.yaml's name with its defaults (PushTest keeps them equal). */
    static final String LOCAL_BUCKET = "datalake-123456789012-us-east-1";

    private Push() {
    }

    public static void main(String[] args) {
        try {
            System.out.println(run(args));
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
        } catch (IOException | RuntimeException e) {
            System.err.println("error: the push failed: " + e.getMessage());
            System.exit(1);
        }
    }

    /** Pushes and returns the {@code s3://} URL of the stored file. */
    static String run(String[] args) throws IOException {
        String what = null;
        String where = null;
        String start = null;
        String end = null;
        String workId = null;
        String endpoint = "http://127.0.0.1:5000";
        String bucket = LOCAL_BUCKET;
        Path file = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--what" -> what = value(args, ++i, arg);
                case "--where" -> where = value(args, ++i, arg);
                case "--start" -> start = value(args, ++i, arg);
                case "--end" -> end = value(args, ++i, arg);
                case "--work-id" -> workId = value(args, ++i, arg);
                case "--endpoint" -> endpoint = value(args, ++i, arg);
                case "--bucket" -> bucket = value(args, ++i, arg);
                default -> {
                    if (arg.startsWith("--") || file != null) {
                        throw new IllegalArgumentException("unexpected argument " + arg + ".");
                    }
                    file = Path.of(arg);
                }
            }
        }
        if (file == null || what == null || where == null) {
            throw new IllegalArgumentException("a FILE, --what and --where are required.");
        }
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(file + " is not a readable file.");
        }
        long startMs = start == null ? Files.getLastModifiedTime(file).toMillis() : time(start, "--start");
        Long endMs = end == null ? null : time(end, "--end");
        try (S3Client s3 = Emulators.clientsFor(URI.create(endpoint)).build(S3Client.builder().forcePathStyle(true))) {
            Pusher.FileFacts facts = new Pusher.FileFacts(what, where, startMs, endMs, workId,
                    file.toAbsolutePath().toString());
            return new Pusher(s3, bucket).push(file, facts).url();
        } catch (InvalidMetadataException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static long time(String text, String flag) {
        try {
            return Long.parseLong(text) <= Times.SECONDS_CUTOFF ? Long.parseLong(text) * 1000 : Long.parseLong(text);
        } catch (NumberFormatException notANumber) {
            try {
                return Times.fromIso(text);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(flag + " must be ms or seconds since the epoch, or ISO-8601.");
            }
        }
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value.");
        }
        return args[i];
    }
}
