package datalake.emulators.calls;

import java.util.Objects;

/**
 * AWS calls of one kind a principal made: {@code count} calls of {@code service}'s {@code operation}
 * (the SDK's names: "S3", "HeadObject") on {@code resource} (an ARN, or "*" for calls on no resource).
 *
 * @param stack     the id of the stack whose principal called ({@link StackRecord#id()})
 * @param principal the template's logical id of who holds the policy: a function
 *                  ("IngesterFunction") or a standalone managed policy ("IndexOperatorPolicy")
 * @param acting    on whose behalf: "function", "event source" (Lambda polling SQS with the function's
 *                  role), or "operator" (a person running an index tool with the managed policy)
 * @param service   the SDK's service name
 * @param operation the SDK's operation name
 * @param resource  the ARN the call is on
 * @param count     how many such calls
 */
public record RecordedCall(String stack, String principal, String acting, String service, String operation,
        String resource, long count) {
    public RecordedCall {
        Objects.requireNonNull(stack, "stack");
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(acting, "acting");
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(resource, "resource");
    }
}
