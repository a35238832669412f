package datalake.bench;

import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * The AWS calls of the clients it is added to, by request type, and how many of them failed (for
 * DynamoDB's conditional writes, a failed condition): what a benchmark's CPU per file is spent on, as a
 * figure that does not depend on the machine's load.
 */
final class CallCounts implements ExecutionInterceptor {
    private final Map<String, LongAdder> calls = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> failed = new ConcurrentHashMap<>();

    private static String operation(SdkRequest request) {
        String name = request.getClass().getSimpleName();
        return name.endsWith("Request") ? name.substring(0, name.length() - "Request".length()) : name;
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        calls.computeIfAbsent(operation(context.request()), k -> new LongAdder()).increment();
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        failed.computeIfAbsent(operation(context.request()), k -> new LongAdder()).increment();
    }

    /** "HeadObject 10.00, PutItem 3.40 (2.10 failed), ..." per {@code per} units (e.g. batches). */
    String per(double units) {
        StringJoiner joined = new StringJoiner(", ");
        new TreeMap<>(calls).forEach((operation, count) -> {
            LongAdder failures = failed.get(operation);
            String text = String.format(Locale.ROOT, "%s %.2f", operation, count.sum() / units);
            if (failures != null && failures.sum() > 0) {
                text += String.format(Locale.ROOT, " (%.2f failed)", failures.sum() / units);
            }
            joined.add(text);
        });
        return joined.toString();
    }

    /** Calls of every kind per {@code units}. */
    double total(double units) {
        return calls.values().stream().mapToLong(LongAdder::sum).sum() / units;
    }
}
