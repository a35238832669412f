package datalake.local;

import datalake.records.Times;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code scripts/push.sh}'s settings (its header lists them): the metadata every file gets, the files and
 * directories, and where the local stack is. The endpoint and bucket follow scripts/local.sh's variables
 * ({@code DATALAKE_LOCAL_MOTO_PORT}, {@code DATALAKE_LOCAL_PREFIX}) unless {@code --endpoint} or
 * {@code --bucket} say otherwise.
 */
record PushOptions(String what, String where, Long start, Long end, String workId, URI endpoint, String bucket,
                   List<Path> paths) {

    PushOptions {
        paths = List.copyOf(paths);
    }

    /** The bucket template.yaml names for a NamePrefix on the local stack (moto's account, us-east-1); PushTest holds it to the template. */
    static String localBucket(String prefix) {
        return prefix + "-123456789012-us-east-1";
    }

    static PushOptions parse(String[] args, Map<String, String> env) {
        String what = null;
        String where = null;
        Long start = null;
        Long end = null;
        String workId = null;
        String endpoint = null;
        String bucket = null;
        List<Path> paths = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--what" -> what = value(args, ++i, arg);
                case "--where" -> where = value(args, ++i, arg);
                case "--start" -> start = time(value(args, ++i, arg), arg);
                case "--end" -> end = time(value(args, ++i, arg), arg);
                case "--work-id" -> workId = value(args, ++i, arg);
                case "--endpoint" -> endpoint = value(args, ++i, arg);
                case "--bucket" -> bucket = value(args, ++i, arg);
                default -> {
                    if (arg.startsWith("--")) {
                        throw new IllegalArgumentException("unknown option " + arg + ".");
                    }
                    paths.add(Path.of(arg));
                }
            }
        }
        if (paths.isEmpty() || what == null || where == null) {
            throw new IllegalArgumentException("--what, --where and at least one FILE or DIRECTORY are required.");
        }
        if (endpoint == null) {
            String port = env.getOrDefault("DATALAKE_LOCAL_MOTO_PORT", "5000").strip();
            if (!port.matches("[0-9]{1,5}")) {
                throw new IllegalArgumentException("DATALAKE_LOCAL_MOTO_PORT must be a port number, not \"" + port + "\".");
            }
            endpoint = "http://127.0.0.1:" + port;
        }
        if (bucket == null) {
            bucket = localBucket(env.getOrDefault("DATALAKE_LOCAL_PREFIX", "datalake").strip());
        }
        URI uri;
        try {
            uri = URI.create(endpoint);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--endpoint must be a URL such as http://127.0.0.1:5000.", e);
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("--endpoint must be a URL such as http://127.0.0.1:5000.");
        }
        return new PushOptions(what, where, start, end, workId, uri, bucket, paths);
    }

    private static long time(String text, String flag) {
        try {
            long n = Long.parseLong(text);
            return n <= Times.SECONDS_CUTOFF ? n * 1000 : n;
        } catch (NumberFormatException notANumber) {
            try {
                return Times.fromIso(text);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(flag + " must be ms or seconds since the epoch, or ISO-8601.", e);
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
