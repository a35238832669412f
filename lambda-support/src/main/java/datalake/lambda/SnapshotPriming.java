package datalake.lambda;

import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

/**
 * SnapStart priming, best effort: before the snapshot (CRaC {@code beforeCheckpoint}) a function runs
 * real work through its real code without the network, so the snapshot holds those classes loaded and
 * that code warmed. A failure is logged as one JSON line and the snapshot is taken anyway. On a JVM
 * without CRaC the hook is registered and never called.
 */
public final class SnapshotPriming implements Resource {
    private final Runnable work;

    private SnapshotPriming(Runnable work) {
        this.work = work;
    }

    /**
     * Registers {@code work} to run before the snapshot. Keep the result in a field: CRaC holds only
     * weak references to the resources registered with it.
     */
    public static SnapshotPriming register(Runnable work) {
        SnapshotPriming priming = new SnapshotPriming(work);
        Core.getGlobalContext().register(priming);
        return priming;
    }

    @Override
    public void beforeCheckpoint(Context<? extends Resource> context) {
        try {
            work.run();
        } catch (RuntimeException e) {
            System.out.println("{\"level\":\"WARN\",\"message\":\"priming failed; the snapshot is taken unprimed\","
                    + "\"error\":\"" + e.getClass().getSimpleName() + "\"}");
        }
    }

    @Override
    public void afterRestore(Context<? extends Resource> context) {
    }
}
