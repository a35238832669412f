package datalake.lambda;

import java.util.List;

/**
 * A function's SnapStart priming: the answers its SDK calls get, as data, and the work it runs
 * through its real code before the snapshot. {@link SnapshotPriming} runs it on clients that answer
 * from a {@link CannedHttpClient}, with dummy credentials: nothing leaves the sandbox, and the
 * snapshot holds the classes loaded and the code warmed of parsing, the SDK's marshalling, signing
 * and unmarshalling, and the function's answers.
 */
public interface Priming {
    /** One answer per operation the work calls. */
    List<CannedHttpClient.Answer> answers();

    /**
     * Builds the function from {@code clients} through the same code as its handler and runs the
     * priming requests on it.
     */
    void run(SdkClientFactory clients);
}
