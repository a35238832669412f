package datalake.query;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
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

    /** Abandons reads whose results are no longer needed (those not started never start). */
    static void cancel(List<? extends Future<?>> futures) {
        for (Future<?> future : futures) {
            future.cancel(false);
        }
    }
}
