package datalake.ingester;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.AwsRequest;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.RequestOverrideConfiguration;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Ends every SDK call a thread makes under a {@link Deadline} by that deadline: the interceptor of the
 * ingester's clients ({@link IngesterClients}) gives each call the time left as its apiCallTimeout (never
 * more than the client's own), so a call that hangs cannot outlive the invocation, and one cut short,
 * or not started because no time is left, fails as {@link ErrorKind#TIME_BUDGET}. A thread outside
 * {@link #within} (and {@link Concurrency}'s tasks, which carry their caller's) keeps the client's timeout.
 */
final class CallDeadline implements ExecutionInterceptor {
    private static final ThreadLocal<Deadline> CURRENT = new ThreadLocal<>();
    private static final ExecutionAttribute<Boolean> CUT = new ExecutionAttribute<>("datalake.CallDeadline.cut");

    /** The client's own apiCallTimeout, or null when it has none. */
    private final Duration own;

    CallDeadline(Duration own) {
        this.own = own;
    }

    /** Runs {@code work} with its SDK calls ending by {@code deadline} (by the clients' own timeouts when null). */
    static <T> T within(Deadline deadline, Supplier<T> work) {
        Deadline outer = CURRENT.get();
        CURRENT.set(deadline);
        try {
            return work.get();
        } finally {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        }
    }

    /** The deadline of this thread's calls, or null. */
    static Deadline current() {
        return CURRENT.get();
    }

    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        Deadline deadline = CURRENT.get();
        // An invocation whose end is unknown (Long.MAX_VALUE) bounds nothing after its work.
        if (deadline == null || deadline.epochMillis() == Long.MAX_VALUE
                || !(context.request() instanceof AwsRequest request)) {
            return context.request();
        }
        long left = deadline.remainingMillis();
        if (left <= 0) {
            throw new OutOfTimeException("the invocation's time budget ran out before " + call(attributes) + ".");
        }
        Duration timeout = Duration.ofMillis(left);
        Optional<AwsRequestOverrideConfiguration> asked = request.overrideConfiguration();
        Duration limit = asked.flatMap(RequestOverrideConfiguration::apiCallTimeout).orElse(own);
        if (limit != null && limit.compareTo(timeout) <= 0) {
            return request;
        }
        attributes.putAttribute(CUT, Boolean.TRUE);
        return request.toBuilder().overrideConfiguration(asked.map(AwsRequestOverrideConfiguration::toBuilder)
                .orElseGet(AwsRequestOverrideConfiguration::builder).apiCallTimeout(timeout).build()).build();
    }

    @Override
    public Throwable modifyException(Context.FailedExecution context, ExecutionAttributes attributes) {
        Throwable e = context.exception();
        if (Boolean.TRUE.equals(attributes.getAttribute(CUT)) && timedOut(e)) {
            // The SDK takes only an exception of the class it threw: the reason rides as its cause.
            OutOfTimeException reason = new OutOfTimeException("the invocation's time budget ran out during "
                    + call(attributes) + ".");
            return ApiCallTimeoutException.builder().message(reason.getMessage()).cause(reason).build();
        }
        return e;
    }

    private static boolean timedOut(Throwable error) {
        for (Throwable e = error; e != null; e = e.getCause()) {
            if (e instanceof ApiCallTimeoutException) {
                return true;
            }
        }
        return false;
    }

    private static String call(ExecutionAttributes attributes) {
        return attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME) + " "
                + attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
    }
}
