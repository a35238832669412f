package datalake.lambda;

import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/**
 * Runs a {@link Priming} before the SnapStart snapshot (CRaC {@code beforeCheckpoint}), best effort:
 * a failure is logged as one JSON line and the snapshot is taken anyway. On a JVM without CRaC the
 * hook is registered and never called.
 */
public final class SnapshotPriming implements Resource {
    private static final JsonLog LOG = JsonLog.toStandardOutput("datalake.priming");
    private final Priming priming;
    private final Region region;

    private SnapshotPriming(Priming priming, Region region) {
        this.priming = priming;
        this.region = region;
    }

    /**
     * Registers {@code priming} to run before the snapshot. Keep the result in a field: CRaC holds only
     * weak references to the resources registered with it.
     */
    public static SnapshotPriming register(Priming priming, String region) {
        SnapshotPriming hook = new SnapshotPriming(priming, Region.of(region));
        Core.getGlobalContext().register(hook);
        return hook;
    }

    /**
     * Runs {@code priming} on clients that answer from its canned answers, with dummy credentials
     * (resolving the real ones could be a call); returns how many calls were answered.
     */
    public static int prime(Priming priming, Region region) {
        CannedHttpClient http = new CannedHttpClient(priming.answers());
        priming.work().accept(SdkClientFactory.of(http,
                StaticCredentialsProvider.create(AwsBasicCredentials.create("priming", "priming")), region));
        return http.calls();
    }

    @Override
    public void beforeCheckpoint(Context<? extends Resource> context) {
        try {
            prime(priming, region);
        } catch (RuntimeException e) {
            LOG.warn("priming failed; the snapshot is taken unprimed",
                    g -> g.writeStringField("error", e.getClass().getSimpleName()));
        }
    }

    @Override
    public void afterRestore(Context<? extends Resource> context) {
    }
}
