package datalake.ingester;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import datalake.lambda.Environment;
import datalake.lambda.SdkClientFactory;
import datalake.lambda.SnapshotPriming;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * The Lambda entry point ({@code datalake.ingester.IngesterHandler::handleRequest}) for SQS batches
 * of S3 notifications, answering partial batch failures (the trigger needs
 * {@code ReportBatchItemFailures}). Everything is built once, in the constructor.
 */
public final class IngesterHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {
    /** The time budget when there is no Lambda context (a local runner), or its deadline is unknown. */
    static final Duration DEFAULT_BUDGET = Duration.ofSeconds(30);
    /** Kept back from the remaining time for dead letters, reports and logs after the objects' last steps. */
    static final Duration MIN_MARGIN = Duration.ofMillis(500);
    static final Duration MAX_MARGIN = Duration.ofSeconds(5);
    /** Kept after the last call of the invocation for the log lines and the answer. */
    static final Duration ANSWER_TIME = Duration.ofMillis(100);

    private final Ingester ingester;
    private final Clock clock;
    /** Held here: CRaC keeps only weak references to the resources registered with it. */
    @SuppressWarnings("UnusedVariable") // never read: only holds a strong reference for CRaC
    private final SnapshotPriming priming;

    /**
     * For Lambda: configuration from the environment, SDK clients from lambda-support's factory (the
     * SDK's own endpoint settings), and SnapStart priming registered for the snapshot (a no-op on a JVM
     * without CRaC).
     */
    public IngesterHandler() {
        this(Environment.system());
    }

    private IngesterHandler(Environment env) {
        this(env, IngesterConfig.from(env));
    }

    private IngesterHandler(Environment env, IngesterConfig config) {
        this(config, SdkClientFactory.forFunction(env, config.concurrency()));
    }

    private IngesterHandler(IngesterConfig config, SdkClientFactory clients) {
        this(Ingester.forAws(config, IngesterClients.from(clients, config)).build(), Clock.systemUTC(),
                SnapshotPriming.register(IngesterPriming.of(config), config.region()));
    }

    /** For tests and the local runner: an ingester built with {@link Ingester#forAws} or {@link Ingester#builder}. */
    public IngesterHandler(Ingester ingester) {
        this(ingester, Clock.systemUTC());
    }

    IngesterHandler(Ingester ingester, Clock clock) {
        this(ingester, clock, null);
    }

    private IngesterHandler(Ingester ingester, Clock clock, SnapshotPriming priming) {
        this.ingester = ingester;
        this.clock = clock;
        this.priming = priming;
    }

    @Override
    public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
        List<SQSEvent.SQSMessage> messages = event == null || event.getRecords() == null ? List.of() : event.getRecords();
        return ingester.handle(messages, deadline(clock, context), context == null ? null : context.getAwsRequestId());
    }

    /** The invocation's deadline: the {@link #budget} for the objects, its end less the answer's time for any call. */
    static Deadline deadline(Clock clock, Context context) {
        if (context == null || context.getRemainingTimeInMillis() <= 0) {
            return Deadline.after(clock, DEFAULT_BUDGET);
        }
        return Deadline.after(clock, budget(context),
                Duration.ofMillis(context.getRemainingTimeInMillis()).minus(ANSWER_TIME));
    }

    /** The remaining time less a margin of a fifth, kept between 0.5 and 5 seconds. */
    static Duration budget(Context context) {
        if (context == null || context.getRemainingTimeInMillis() <= 0) {
            return DEFAULT_BUDGET;
        }
        Duration remaining = Duration.ofMillis(context.getRemainingTimeInMillis());
        Duration margin = remaining.dividedBy(5);
        if (margin.compareTo(MIN_MARGIN) < 0) {
            margin = MIN_MARGIN;
        } else if (margin.compareTo(MAX_MARGIN) > 0) {
            margin = MAX_MARGIN;
        }
        return remaining.minus(margin).isNegative() ? Duration.ZERO : remaining.minus(margin);
    }
}
