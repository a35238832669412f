package datalake.tools;

import datalake.ingester.Deadline;
import datalake.ingester.Failure;
import datalake.ingester.Followed;
import datalake.ingester.Ingester;
import datalake.ingester.ObjectEvent;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Indexes the objects already in a bucket through the ingester's own code path ({@link Ingester#follow}:
 * HEAD, validation, records, per-object items, latest table). The listing goes a page (1,000 keys) at a
 * time, in key order; each page is followed in chunks on a pool of workers (the HEADs of a chunk run
 * concurrently, its records go out in batched writes) and finishes before the next begins, so the last
 * key of a finished page is a safe place to resume ({@code --start-after}). Running it twice indexes
 * nothing twice: HEAD decides, and the records' keys are the files'; a file the index already held as it
 * is counts as unchanged. Beside it a second listing only counts the keys, so that the progress bar (and
 * a stopped run's summary) can tell the true fraction done.
 *
 * <p>An object that still fails transiently after {@value #ATTEMPTS} attempts counts as failed, and the
 * resume point never passes it (it stays at the key before), so that resuming retries it; its key is also
 * among the result's keys to retry, which a run given keys ({@code --keys-from}) follows alone, listing
 * nothing. A chunk in which no object was indexed and one failed so is AWS failing, not one object: the
 * chunks of its page not yet begun are left, and the run stops ({@link Failed}) after the page.
 */
final class Backfill {
    /** Attempts of an object that keeps failing transiently (throttling, 5xx) before it counts as failed. */
    static final int ATTEMPTS = 3;
    private static final int KEPT_FAILURES = 100;

    /**
     * @param target     the bucket and prefix
     * @param startAfter list after this key (resume), or null
     * @param pageSize   keys a listing page asks for (S3 answers at most 1,000)
     * @param workers    chunks followed at once
     * @param chunk      objects a chunk follows together
     * @param keys       the keys to follow, a page of them at a time, instead of listing the target; or null
     */
    record Options(Target target, String startAfter, int pageSize, int workers, int chunk, List<String> keys) {
        Options {
            if (pageSize < 1 || pageSize > 1000 || workers < 1 || chunk < 1) {
                throw new IllegalArgumentException("the page size must be 1 to 1000, workers and chunk at least 1.");
            }
            keys = keys == null ? null : List.copyOf(keys);
        }

        /** Options that list the target. */
        Options(Target target, String startAfter, int pageSize, int workers, int chunk) {
            this(target, startAfter, pageSize, workers, chunk, null);
        }
    }

    /** One object that could not be indexed, and why. */
    record Problem(String url, Failure failure) {
    }

    /**
     * What a run did.
     *
     * @param indexed     files indexed that the index did not hold as they are (new or changed)
     * @param unchanged   files the index already held as they are (by their per-object items)
     * @param failedTransiently of the failed, those still failing transiently after their attempts (a later
     *                    run may index them: the resume point is before the first)
     * @param total       the keys under the target (after {@code --start-after}), when the count finished
     * @param resumeAfter where a later run continues (every object up to it settled), or null
     * @param stopped     whether the run stopped before the end of the listing (asked to, or AWS failing)
     * @param retry       the keys a later run given them follows to settle what this one left: those still
     *                    failing transiently, and in a run given keys those it did not follow
     */
    record Result(long listed, long indexed, long unchanged, long withoutMetadata, long failed, long failedTransiently,
            long gone, List<Problem> problems, Optional<Long> total, String resumeAfter, boolean stopped,
            Duration elapsed, List<String> retry) {
        double objectsPerSecond() {
            return elapsed.toMillis() == 0 ? listed : listed * 1000.0 / elapsed.toMillis();
        }

        /** The last line of the output: the counts, for whoever alerts on them. */
        String countsLine() {
            return "listed=" + listed + " indexed=" + indexed + " unchanged=" + unchanged + " skipped_without_metadata="
                    + withoutMetadata + " failed=" + failed + " gone=" + gone;
        }
    }

    private final S3Client s3;
    private final Ingester ingester;
    private final Clock clock;
    final AtomicLong listed = new AtomicLong();
    final AtomicLong indexed = new AtomicLong();
    final AtomicLong unchanged = new AtomicLong();
    final AtomicLong withoutMetadata = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final AtomicLong failedTransiently = new AtomicLong();
    final AtomicLong gone = new AtomicLong();
    private final List<Problem> problems = Collections.synchronizedList(new ArrayList<>());
    /** Keys the counting listing has seen so far; {@code counted} once it reached the end. */
    private final AtomicLong keys = new AtomicLong();
    private volatile boolean counted;
    private volatile String position;
    private volatile long started;
    /** Set by a chunk that indexed nothing and had an object still failing transiently: AWS keeps failing. */
    private volatile Failure failing;
    /** The keys left to a later run ({@link Result#retry}), in the order they were listed or given. */
    private final List<String> retry = new ArrayList<>();

    Backfill(S3Client s3, Ingester ingester, Clock clock) {
        this.s3 = s3;
        this.ingester = ingester;
        this.clock = clock;
    }

    /**
     * The progress line: the objects done out of all under the target (a moving marker and "N+" while
     * the count runs), the counts, the rate and where the listing is.
     */
    String progressLine() {
        long done = done();
        long seconds = Math.max(1, (clock.millis() - started) / 1000);
        return Progress.bar(done, counted ? keys.get() : 0) + String.format(Locale.ROOT,
                " %,d of %,d%s | indexed %,d | unchanged %,d | without metadata %,d | failed %,d | %,d objects/s%s",
                done, keys.get(), counted ? "" : "+ (counting)", indexed.get(), unchanged.get(), withoutMetadata.get(),
                failed.get(), done / seconds, position == null ? "" : " | after " + abbreviate(position));
    }

    /** Objects followed to an outcome. */
    private long done() {
        return indexed.get() + unchanged.get() + withoutMetadata.get() + failed.get() + gone.get();
    }

    /** Whether the count of the keys under the target has finished. */
    boolean counted() {
        return counted;
    }

    /**
     * A run that a failure (a listing AWS refused, a page that could not be followed, AWS failing a whole
     * chunk) ended after it had listed something: what it did until then, stopped, and where to resume.
     */
    static final class Failed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Result partial;

        Failed(Result partial, RuntimeException cause) {
            super(cause.getMessage(), cause);
            this.partial = partial;
        }

        Result partial() {
            return partial;
        }
    }

    /** Runs until the listing ends or {@code stop} says so (checked between pages); {@link Failed} on a failure. */
    Result run(Options options, BooleanSupplier stop) {
        started = clock.millis();
        String resumeAfter = options.startAfter();
        boolean heldBack = false;
        boolean stopped = false;
        ExecutorService pool = Executors.newFixedThreadPool(options.workers(), r -> {
            Thread thread = new Thread(r, "backfill");
            thread.setDaemon(true);
            return thread;
        });
        List<String> given = options.keys();
        Thread counter = new Thread(() -> countKeys(options), "backfill-count");
        counter.setDaemon(true);
        if (given == null) {
            counter.start();
        } else {
            keys.set(given.size());
            counted = true;
        }
        int followed = 0; // of the keys given, those followed (the ones left unsettled are in retry)
        try {
            String token = null;
            boolean more;
            do {
                if (stop.getAsBoolean()) {
                    stopped = true;
                    break;
                }
                List<S3Object> contents;
                if (given == null) {
                    String continuation = token;
                    String after = resumeAfter;
                    ListObjectsV2Response page = s3.listObjectsV2(r -> {
                        r.bucket(options.target().bucket()).prefix(options.target().prefix())
                                .maxKeys(options.pageSize());
                        if (continuation != null) {
                            r.continuationToken(continuation);
                        } else if (after != null) {
                            r.startAfter(after);
                        }
                    });
                    contents = page.contents();
                    token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
                    more = token != null;
                } else {
                    contents = given.subList(followed, Math.min(given.size(), followed + options.pageSize())).stream()
                            .map(key -> S3Object.builder().key(key).build()).toList();
                    more = followed + contents.size() < given.size();
                }
                listed.addAndGet(contents.size());
                Set<String> left = follow(contents, options, pool);
                contents.stream().map(S3Object::key).filter(left::contains).forEach(retry::add);
                followed += contents.size();
                int unsettled = firstOf(contents, left);
                if (!contents.isEmpty()) {
                    position = contents.get(contents.size() - 1).key();
                }
                if (!heldBack && given == null) { // never past an object a later run may index: resuming retries it
                    int settled = unsettled < 0 ? contents.size() : unsettled;
                    resumeAfter = settled == 0 ? resumeAfter : contents.get(settled - 1).key();
                    heldBack = unsettled >= 0;
                }
                if (failing != null) {
                    throw new IllegalStateException(keptFailing(failing));
                }
            } while (more);
        } catch (RuntimeException e) {
            if (listed.get() == 0) {
                throw e; // nothing listed: a run that could not start, not one to resume
            }
            throw new Failed(result(resumeAfter, true, given, followed), e);
        } finally {
            pool.shutdownNow();
            counter.interrupt();
        }
        return result(resumeAfter, stopped, given, followed);
    }

    private Result result(String resumeAfter, boolean stopped, List<String> given, int followed) {
        List<String> left = new ArrayList<>(retry);
        if (given != null) {
            left.addAll(given.subList(followed, given.size()));
        }
        return new Result(listed.get(), indexed.get(), unchanged.get(), withoutMetadata.get(), failed.get(),
                failedTransiently.get(), gone.get(), List.copyOf(problems),
                counted ? Optional.of(keys.get()) : Optional.empty(), given == null ? resumeAfter : null, stopped,
                Duration.ofMillis(clock.millis() - started), List.copyOf(left));
    }

    /** The index in the page of its first object in {@code keys}, or -1. */
    private static int firstOf(List<S3Object> contents, Set<String> keys) {
        for (int i = 0; i < contents.size(); i++) {
            if (keys.contains(contents.get(i).key())) {
                return i;
            }
        }
        return -1;
    }

    /** The sentence of a run that AWS stopped: the first failure of the chunk AWS answered nothing of. */
    private static String keptFailing(Failure failure) {
        String message = failure.message().endsWith(".") ? failure.message().substring(0, failure.message().length() - 1)
                : failure.message();
        return "AWS kept failing, so the run stopped: AWS answered no object of a chunk, and its objects still failed"
                + " after " + ATTEMPTS + " attempts (" + failure.kind().label() + ": " + message + ").";
    }

    /**
     * Counts the keys under the target, a page of 1,000 at a time, ahead of the run (a listing costs far
     * less than following its objects); ends with the run. A failed count leaves the total unknown.
     */
    private void countKeys(Options options) {
        try {
            for (ListObjectsV2Response page : s3.listObjectsV2Paginator(r -> {
                r.bucket(options.target().bucket()).prefix(options.target().prefix()).maxKeys(1000);
                if (options.startAfter() != null) {
                    r.startAfter(options.startAfter());
                }
            })) {
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
                keys.addAndGet(page.keyCount() == null ? page.contents().size() : page.keyCount());
            }
            counted = true;
        } catch (RuntimeException e) {
            // the total stays unknown: the progress bar says so; the backfill itself is not affected
        }
    }

    /**
     * Follows one page, in chunks on the pool, and waits for all of it: the keys of the objects it left
     * unsettled (still failing transiently, or not followed since AWS keeps failing).
     */
    private Set<String> follow(List<S3Object> contents, Options options, ExecutorService pool) {
        List<Future<List<ObjectEvent>>> pending = new ArrayList<>();
        for (int from = 0; from < contents.size(); from += options.chunk()) {
            List<ObjectEvent> events = new ArrayList<>(options.chunk());
            for (S3Object object : contents.subList(from, Math.min(contents.size(), from + options.chunk()))) {
                events.add(new ObjectEvent(options.target().bucket(), object.key(), "Backfill", null));
            }
            pending.add(pool.submit(() -> followChunk(events)));
        }
        Set<String> unsettled = new HashSet<>();
        for (Future<List<ObjectEvent>> future : pending) {
            try {
                future.get().forEach(event -> unsettled.add(event.key()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while following a page", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("a chunk of the page failed: " + e.getCause(), e.getCause());
            }
        }
        return unsettled;
    }

    /**
     * Follows one chunk, an object that fails transiently up to {@value #ATTEMPTS} times: the objects it
     * leaves unsettled (still failing so, or all of them when AWS kept failing before it began). AWS is
     * taken to be failing when two or more objects of the chunk still fail so and AWS answered none of the
     * others (indexed, gone, or refused for good, as an object without metadata is): one object failing
     * alone (its own key policy, say) holds the resume point back but stops nothing.
     */
    private List<ObjectEvent> followChunk(List<ObjectEvent> events) {
        if (failing != null) {
            return events;
        }
        List<ObjectEvent> unsettled = new ArrayList<>();
        Failure transientFailure = null;
        boolean anyAnswered = false;
        List<ObjectEvent> todo = events;
        for (int attempt = 1; !todo.isEmpty(); attempt++) {
            List<ObjectEvent> again = new ArrayList<>();
            for (Followed followed : ingester.follow(todo, Deadline.after(clock, Duration.ofSeconds(60)))) {
                Failure failure = followed.failure();
                if (failure != null && !failure.permanent() && attempt < ATTEMPTS) {
                    again.add(followed.event());
                    continue;
                }
                if (failure != null && !failure.permanent()) {
                    unsettled.add(followed.event());
                    transientFailure = transientFailure == null ? failure : transientFailure;
                    failedTransiently.incrementAndGet();
                }
                anyAnswered |= failure == null || failure.permanent();
                count(followed);
            }
            todo = again;
            if (!todo.isEmpty()) {
                pause(attempt);
            }
        }
        if (unsettled.size() >= 2 && !anyAnswered && failing == null) {
            failing = transientFailure;
        }
        return unsettled;
    }

    private void count(Followed followed) {
        if (followed.indexed()) {
            (followed.unchanged() ? unchanged : indexed).incrementAndGet();
        } else if (followed.withoutMetadata()) {
            withoutMetadata.incrementAndGet();
        } else if (followed.failure() == null) {
            gone.incrementAndGet(); // deleted between the listing and its HEAD: nothing to index
        } else {
            failed.incrementAndGet();
            if (problems.size() < KEPT_FAILURES) {
                problems.add(new Problem(followed.event().url(), followed.failure()));
            }
        }
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(200L << attempt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String abbreviate(String key) {
        return key.length() <= 60 ? key : key.substring(0, 28) + "..." + key.substring(key.length() - 29);
    }
}
