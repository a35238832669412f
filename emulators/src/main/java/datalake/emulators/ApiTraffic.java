package datalake.emulators;

import java.util.concurrent.atomic.LongAdder;

/** What the local API answered, by outcome, for the runner's summary line. */
final class ApiTraffic {
    private final LongAdder requests = new LongAdder();
    private final LongAdder clientErrors = new LongAdder();
    private final LongAdder serverErrors = new LongAdder();
    private final LongAdder throttled = new LongAdder();

    void count(int status) {
        requests.increment();
        if (status == 429) {
            throttled.increment();
        } else if (status >= 500) {
            serverErrors.increment();
        } else if (status >= 400) {
            clientErrors.increment();
        }
    }

    /** A connection answered 503 at once: throttled as much as a 429. */
    void refused() {
        requests.increment();
        throttled.increment();
    }

    HttpApiServer.Counts counts() {
        return new HttpApiServer.Counts(requests.sum(), clientErrors.sum(), serverErrors.sum(), throttled.sum());
    }
}
