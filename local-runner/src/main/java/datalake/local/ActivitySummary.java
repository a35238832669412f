package datalake.local;

import datalake.emulators.HttpApiServer;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The runner's console line for an interval (the functions' own lines are in the log file): what the API
 * answered and what the ingester handled since the last line (or since it was made), and the ingest
 * queue's depth. Nothing when nothing happened.
 */
final class ActivitySummary {
    private final Supplier<HttpApiServer.Counts> api;
    private final LongSupplier messages;
    private final LongSupplier failedMessages;
    private final LongSupplier queueDepth;
    private final Path log;
    private HttpApiServer.Counts lastApi;
    private long lastMessages;
    private long lastFailed;
    private long lastDepth;

    /**
     * @param queueDepth messages in the ingest queue, visible or in flight (-1 when it cannot be read)
     */
    ActivitySummary(Supplier<HttpApiServer.Counts> api, LongSupplier messages, LongSupplier failedMessages,
            LongSupplier queueDepth, Path log) {
        this.api = api;
        this.messages = messages;
        this.failedMessages = failedMessages;
        this.queueDepth = queueDepth;
        this.log = log;
        // What happened before (the demo data) is not news.
        this.lastApi = api.get();
        this.lastMessages = messages.getAsLong();
        this.lastFailed = failedMessages.getAsLong();
    }

    /** The line for the interval since the previous call, or empty when nothing happened in it. */
    Optional<String> next(long seconds) {
        HttpApiServer.Counts now = api.get();
        long handled = messages.getAsLong();
        long failed = failedMessages.getAsLong();
        long depth = queueDepth.getAsLong();
        long requests = now.requests() - lastApi.requests();
        long delivered = handled - lastMessages;
        if (requests == 0 && delivered == 0 && depth == lastDepth) {
            return Optional.empty();
        }
        String line = String.format(Locale.ROOT,
                "local: last %d s: API %s (%,d 4xx, %,d 5xx, %,d throttled); ingester %s (%,d given back);"
                        + " ingest queue %s; function logs in %s",
                seconds, count(requests, "request"), now.clientErrors() - lastApi.clientErrors(),
                now.serverErrors() - lastApi.serverErrors(), now.throttled() - lastApi.throttled(),
                count(delivered, "message"), failed - lastFailed,
                depth < 0 ? "unknown" : String.format(Locale.ROOT, "%,d", depth), log);
        lastApi = now;
        lastMessages = handled;
        lastFailed = failed;
        lastDepth = depth;
        return Optional.of(line);
    }

    private static String count(long n, String noun) {
        return String.format(Locale.ROOT, "%,d %s%s", n, noun, n == 1 ? "" : "s");
    }
}
