package datalake.ingester;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * An SDK interceptor that sends the named operations to a closed port while switched on: a real
 * network failure (connection refused) for those calls only, the emulator itself untouched.
 */
final class FaultInjector implements ExecutionInterceptor {
    /** Port 1 (tcpmux) is closed everywhere these tests run. */
    private static final int CLOSED_PORT = 1;
    private final Set<String> failing = ConcurrentHashMap.newKeySet();
    final AtomicInteger injected = new AtomicInteger();

    void fail(String operation) {
        failing.add(operation);
    }

    void heal() {
        failing.clear();
    }

    @Override
    public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        if (!failing.contains(operation)) {
            return context.httpRequest();
        }
        injected.incrementAndGet();
        return context.httpRequest().toBuilder().host("127.0.0.1").port(CLOSED_PORT).build();
    }
}
