package datalake.local;

import datalake.emulators.Emulators;
import datalake.lambda.SdkClientFactory;
import datalake.records.InvalidMetadataException;
import datalake.records.Times;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * {@code scripts/push.sh}: uploads local files (or every file under a directory) with their datalake
 * metadata to the local bucket, as the datalake client's {@code push} does (key {@code <id>/data},
 * BLAKE2b-128 hash, metadata in {@code x-amz-meta-datalake}), several at once in one JVM; the running
 * pipeline then indexes them. Prints each file's {@code s3://} URL on standard output, the progress on
 * standard error. Many files wait for room in the local ingest queue ({@link IngestBacklog}).
 */
public final class Push {
    /** The bucket of scripts/local.sh's stack with the default prefix (PushTest holds it to template.yaml). */
    static final String LOCAL_BUCKET = PushOptions.localBucket("datalake");
    /** Uploads at once: moto handles each one's notification inside the PUT, so more only queue there. */
    private static final int WORKERS = 8;
    private static final long PROGRESS_EVERY_NANOS = 2_000_000_000L;

    private Push() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.getenv(), System.out, System.err));
    }

    /** Pushes what {@code args} name; returns the exit status (0 all pushed, 1 a failure, 2 bad arguments). */
    static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        PushOptions options;
        List<Path> files;
        try {
            options = PushOptions.parse(args, env);
            files = files(options.paths());
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage() + " (scripts/push.sh --help lists the options)");
            return 2;
        }
        SdkClientFactory clients = Emulators.clientsFor(options.endpoint());
        try (S3Client s3 = clients.build(S3Client.builder().forcePathStyle(true));
             SqsClient sqs = clients.build(SqsClient.builder())) {
            Batch batch = new Batch(new Pusher(s3, options.bucket()), options, files, out, err);
            Optional<IngestBacklog> backlog;
            try {
                backlog = files.size() > 1 ? IngestBacklog.of(sqs, options.bucket()) : Optional.empty();
            } catch (RuntimeException e) {
                err.println("error: " + batch.stopsEverything(e).orElse(e.getMessage()));
                return 1;
            }
            return batch.run(backlog);
        }
    }

    /** The regular files named, and those under the directories named (in name order). */
    static List<Path> files(List<Path> paths) {
        List<Path> files = new ArrayList<>();
        for (Path path : paths) {
            if (Files.isDirectory(path)) {
                try (Stream<Path> walk = Files.walk(path)) {
                    walk.filter(Files::isRegularFile).sorted().forEach(files::add);
                } catch (IOException | UncheckedIOException e) {
                    throw new IllegalArgumentException("the directory " + path + " cannot be read: " + e.getMessage(), e);
                }
            } else if (Files.isRegularFile(path) && Files.isReadable(path)) {
                files.add(path);
            } else {
                throw new IllegalArgumentException(path + " is not a readable file or directory.");
            }
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException("the directories named hold no files.");
        }
        return files;
    }

    /** One run: the files shared out to {@value #WORKERS} threads, stopping everything at a failure no other file would escape. */
    private static final class Batch {
        private final Pusher pusher;
        private final PushOptions options;
        private final List<Path> files;
        private final PrintStream out;
        private final PrintStream err;
        private final AtomicInteger next = new AtomicInteger();
        private final AtomicInteger pushed = new AtomicInteger();
        private final AtomicInteger failed = new AtomicInteger();
        private final AtomicReference<String> fatal = new AtomicReference<>();

        Batch(Pusher pusher, PushOptions options, List<Path> files, PrintStream out, PrintStream err) {
            this.pusher = pusher;
            this.options = options;
            this.files = files;
            this.out = out;
            this.err = err;
        }

        int run(Optional<IngestBacklog> backlog) {
            long started = System.nanoTime();
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < Math.min(WORKERS, files.size()); i++) {
                workers.add(Thread.ofPlatform().name("push-" + i).start(() -> work(backlog)));
            }
            long lastProgress = started;
            for (Thread worker : workers) {
                while (!join(worker)) {
                    if (files.size() > 1 && System.nanoTime() - lastProgress >= PROGRESS_EVERY_NANOS) {
                        lastProgress = System.nanoTime();
                        err.println("push: " + progress(started));
                    }
                }
            }
            if (fatal.get() != null) {
                err.println("error: " + fatal.get());
                return 1;
            }
            if (files.size() > 1) {
                err.println("push: " + progress(started) + " to s3://" + options.bucket());
            }
            return failed.get() == 0 ? 0 : 1;
        }

        private String progress(long started) {
            double seconds = Math.max(1e-3, (System.nanoTime() - started) / 1e9);
            return String.format(java.util.Locale.ROOT, "%,d of %,d files in %.0f s (%.0f files/s)%s",
                    pushed.get(), files.size(), seconds, pushed.get() / seconds,
                    failed.get() == 0 ? "" : ", " + failed.get() + " failed");
        }

        private static boolean join(Thread worker) {
            try {
                return worker.join(java.time.Duration.ofMillis(250));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return true;
            }
        }

        private void work(Optional<IngestBacklog> backlog) {
            for (int i = next.getAndIncrement(); i < files.size() && fatal.get() == null; i = next.getAndIncrement()) {
                Path file = files.get(i);
                try {
                    if (backlog.isPresent()) {
                        backlog.get().awaitRoom();
                    }
                    long start = options.start() != null ? options.start() : Files.getLastModifiedTime(file).toMillis();
                    if (options.start() == null && options.end() != null && options.end() < start) {
                        // This file's own date, not the options: the other files may still go.
                        notPushed(file, "it starts at its modification time, " + Times.toIso(start) + ", after --end "
                                + Times.toIso(options.end()) + "; give --start too.");
                        continue;
                    }
                    Pusher.FileFacts facts = new Pusher.FileFacts(options.what(), options.where(), start, options.end(),
                            options.workId(), file.toAbsolutePath().toString());
                    String url = pusher.push(file, facts).url();
                    pushed.incrementAndGet();
                    synchronized (out) {
                        out.println(url);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    fatal.compareAndSet(null, "interrupted");
                } catch (RuntimeException | IOException e) {
                    Optional<String> stop = stopsEverything(e);
                    if (stop.isPresent()) {
                        fatal.compareAndSet(null, stop.get());
                    } else {
                        notPushed(file, e.getMessage());
                    }
                }
            }
        }

        /** A failure of this file alone: counted, and named with its reason. */
        private void notPushed(Path file, String reason) {
            failed.incrementAndGet();
            err.println("error: " + file + " was not pushed: " + reason);
        }

        /** The sentence for a failure that every other file would meet too (the endpoint, the bucket, the metadata). */
        Optional<String> stopsEverything(Exception e) {
            if (e instanceof InvalidMetadataException) {
                return Optional.of(e.getMessage());
            }
            if (e instanceof NoSuchBucketException) {
                return Optional.of("there is no bucket " + options.bucket() + " at " + options.endpoint()
                        + "; the runner's bucket is in its start-up lines (DATALAKE_LOCAL_PREFIX or --bucket).");
            }
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof ConnectException) {
                    return Optional.of("nothing answers at " + options.endpoint() + " (" + cause.getMessage()
                            + "): is scripts/local.sh running, with moto on that port? Set DATALAKE_LOCAL_MOTO_PORT "
                            + "as for scripts/local.sh, or --endpoint.");
                }
            }
            if (e instanceof SdkClientException) {
                return Optional.of("the push to " + options.endpoint() + " failed: " + e.getMessage());
            }
            return Optional.empty();
        }
    }
}
