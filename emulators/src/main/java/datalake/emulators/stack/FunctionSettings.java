package datalake.emulators.stack;

import java.time.Duration;
import java.util.Map;

/**
 * A function of the template as Lambda would run it: its name, handler, timeout and memory, and its
 * environment (the template's variables, resolved, plus what Lambda and the emulators add: the
 * endpoints, the region, the function's name and the credentials of its role).
 *
 * @param logicalId    the function's logical id ("IngesterFunction")
 * @param functionName its FunctionName (AWS_LAMBDA_FUNCTION_NAME)
 * @param handler      "package.Class::method"
 * @param timeout      its Timeout (the invocation's remaining time at the start)
 * @param memoryMb     its MemorySize
 * @param environment  what the handler reads as its environment
 */
public record FunctionSettings(String logicalId, String functionName, String handler, Duration timeout, int memoryMb,
        Map<String, String> environment) {
    public FunctionSettings {
        environment = Map.copyOf(environment);
    }
}
