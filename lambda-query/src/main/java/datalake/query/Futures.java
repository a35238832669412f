package datalake.query;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/** Waiting for the concurrent bucket reads, with their exceptions as they were thrown. */
final class Futures {
    private Futures() {
    }

    static <T> T join(Future<T> future) {
        try {
            return future.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while reading day buckets");
        }
    }

    /** Runs a read on this thread, with its exceptions as {@link #join} gives them. */
    static <T> T call(Callable<T> read) {
        try {
            return read.call();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs the reads concurrently on the executor and answers their results in order (a single read runs on
     * the caller's thread: another thread gains nothing).
     */
    static <T> List<T> all(ExecutorService executor, List<Callable<T>> reads) {
        if (reads.size() <= 1) {
            List<T> results = new ArrayList<>(reads.size());
            for (Callable<T> read : reads) {
                results.add(call(read));
            }
            return results;
        }
        List<Future<T>> pending = new ArrayList<>(reads.size());
        try {
            for (Callable<T> read : reads) {
                pending.add(executor.submit(read));
            }
            List<T> results = new ArrayList<>(reads.size());
            for (Future<T> read : pending) {
                results.add(join(read));
            }
            return results;
        } finally {
            cancel(pending);
        }
    }

    /** Abandons reads whose results are no longer needed (those not started never start). */
    static void cancel(List<? extends Future<?>> futures) {
        for (Future<?> future : futures) {
            future.cancel(false);
        }
    }
}
