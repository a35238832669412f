package datalake.ingester;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/** Runs one step for each object of a batch on the ingester's bounded pool, and waits for them all. */
final class Concurrency {
    private final ExecutorService executor;

    Concurrency(ExecutorService executor) {
        this.executor = executor;
    }

    /**
     * Runs {@code step} for every object (inline when there is one); an exception of a step is classified
     * and handed to {@code failed} with its object, never thrown.
     */
    void each(List<BatchObject> objects, Consumer<BatchObject> step, BiConsumer<BatchObject, Failure> failed) {
        if (objects.size() == 1) {
            BatchObject only = objects.get(0);
            try {
                step.accept(only);
            } catch (RuntimeException e) {
                failed.accept(only, Failures.classify(e, only.event.url()));
            }
            return;
        }
        List<Future<?>> pending = new ArrayList<>(objects.size());
        for (BatchObject object : objects) {
            pending.add(executor.submit(() -> step.accept(object)));
        }
        for (int i = 0; i < pending.size(); i++) {
            try {
                pending.get(i).get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the objects of the batch", e);
            } catch (ExecutionException e) {
                failed.accept(objects.get(i), Failures.classify(e, objects.get(i).event.url()));
            }
        }
    }
}
