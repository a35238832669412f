package datalake.ingester;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;

/** Runs one step for each object of a batch on the ingester's bounded pool, and waits for them all. */
final class Concurrency {
    private final ExecutorService executor;

    Concurrency(ExecutorService executor) {
        this.executor = executor;
    }

    /**
     * Runs {@code step} on every object (inline when there is one), its SDK calls under the caller's
     * {@link CallDeadline}, and answers what it handed back, in order. A step that throws never throws
     * here: its object is answered as it was given, with the exception classified as its failure.
     */
    List<ObjectOutcome> each(List<ObjectOutcome> objects, UnaryOperator<ObjectOutcome> step) {
        List<ObjectOutcome> after = new ArrayList<>(objects.size());
        if (objects.size() == 1) {
            ObjectOutcome only = objects.get(0);
            try {
                after.add(step.apply(only));
            } catch (RuntimeException e) {
                after.add(only.failed(Failures.classify(e, only.url())));
            }
            return after;
        }
        List<Future<ObjectOutcome>> pending = new ArrayList<>(objects.size());
        Deadline calls = CallDeadline.current();
        for (ObjectOutcome object : objects) {
            pending.add(executor.submit(() -> CallDeadline.within(calls, () -> step.apply(object))));
        }
        for (int i = 0; i < pending.size(); i++) {
            try {
                after.add(pending.get(i).get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the objects of the batch", e);
            } catch (ExecutionException e) {
                after.add(objects.get(i).failed(Failures.classify(e, objects.get(i).url())));
            }
        }
        return after;
    }
}
