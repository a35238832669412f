package datalake.local;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.amazonaws.services.lambda.runtime.serialization.factories.JacksonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.emulators.LocalLambdaContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * One invocation as Lambda's Java runtime makes it, in a JVM of its own that {@link Invoke} starts with
 * the function's environment and memory: the handler named by {@code _HANDLER} built with its no-argument
 * constructor, the event from standard input read into the handler's input type by the runtime's own
 * serializers (aws-lambda-java-serialization), the response on standard output and the log on standard
 * error, between START, END and REPORT lines. An exception from the handler is answered as Lambda answers
 * it ({@code errorMessage}, {@code errorType}), with exit status {@value #FUNCTION_ERROR}.
 */
final class FunctionRuntime {
    static final int FUNCTION_ERROR = 1;

    private FunctionRuntime() {
    }

    /** {@code args}: the function's timeout in seconds. */
    public static void main(String[] args) throws IOException {
        Map<String, String> env = System.getenv();
        PrintStream response = System.out;
        // The function's own prints are its log, as in Lambda: only the response goes to standard output.
        System.setOut(System.err);
        byte[] event = System.in.readAllBytes();
        String name = env.get("AWS_LAMBDA_FUNCTION_NAME");
        int memoryMb = Integer.parseInt(env.get("AWS_LAMBDA_FUNCTION_MEMORY_SIZE"));
        long initStart = System.nanoTime();
        Object handler;
        Method method;
        try {
            String[] parts = env.get("_HANDLER").split("::", 2);
            Class<?> type = Class.forName(parts[0]);
            handler = type.getConstructor().newInstance();
            method = handlerMethod(type, parts.length > 1 ? parts[1] : "handleRequest");
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
            System.err.println("INIT_REPORT Init Duration: " + millis(System.nanoTime() - initStart) + " ms\tPhase: init"
                    + "\tStatus: error\tError Type: Runtime.Unknown");
            cause.printStackTrace(System.err);
            response.println(error(cause));
            response.flush();
            System.exit(FUNCTION_ERROR);
            return;
        }
        long initNanos = System.nanoTime() - initStart;
        LocalLambdaContext context = new LocalLambdaContext(name, Duration.ofSeconds(Long.parseLong(args[0])), memoryMb);
        System.err.println("START RequestId: " + context.getAwsRequestId() + " Version: $LATEST");
        long start = System.nanoTime();
        byte[] answer;
        boolean failed = false;
        try {
            answer = invoke(handler, method, event, context);
        } catch (InvocationTargetException e) {
            e.getCause().printStackTrace(System.err);
            answer = error(e.getCause()).getBytes(StandardCharsets.UTF_8);
            failed = true;
        } catch (RuntimeException e) {
            // The event did not fit the handler's input type (Lambda's Runtime.UserCodeSyntaxError kind of failure).
            System.err.println(e);
            answer = error(e).getBytes(StandardCharsets.UTF_8);
            failed = true;
        }
        long nanos = System.nanoTime() - start;
        System.err.println("END RequestId: " + context.getAwsRequestId());
        System.err.println("REPORT RequestId: " + context.getAwsRequestId() + "\tDuration: " + millis(nanos)
                + " ms\tBilled Duration: " + (long) Math.ceil(nanos / 1e6) + " ms\tMemory Size: " + memoryMb
                + " MB\tMax Memory Used: " + maxMemoryUsedMb() + " MB\tInit Duration: " + millis(initNanos) + " ms\t");
        System.err.flush();
        response.write(answer);
        response.println();
        response.flush();
        // A handler's non-daemon threads (SDK clients, pools) would keep the JVM; Lambda freezes it instead.
        System.exit(failed ? FUNCTION_ERROR : 0);
    }

    private static Method handlerMethod(Class<?> type, String name) throws NoSuchMethodException {
        if (RequestStreamHandler.class.isAssignableFrom(type)) {
            return type.getMethod(name, java.io.InputStream.class, java.io.OutputStream.class, Context.class);
        }
        for (Method method : type.getMethods()) {
            if (method.getName().equals(name) && !method.isBridge() && method.getParameterCount() == 2
                    && method.getParameterTypes()[1] == Context.class) {
                return method;
            }
        }
        throw new NoSuchMethodException(type.getName() + " has no method " + name + "(input, Context)");
    }

    private static byte[] invoke(Object handler, Method method, byte[] event, Context context)
            throws InvocationTargetException {
        try {
            if (handler instanceof RequestStreamHandler) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                method.invoke(handler, new ByteArrayInputStream(event), out, context);
                return out.toByteArray();
            }
            Object input = serializer(inputType(handler, method)).fromJson(new ByteArrayInputStream(event));
            Object output = method.invoke(handler, input, context);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            if (output == null) {
                out.writeBytes("null".getBytes(StandardCharsets.UTF_8));
            } else {
                serializer(output.getClass()).toJson(output, out);
            }
            return out.toByteArray();
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(method + " cannot be called: " + e.getMessage(), e);
        }
    }

    /** The input type: RequestHandler's type argument where the class names it, else the method's parameter. */
    private static Class<?> inputType(Object handler, Method method) {
        if (handler instanceof RequestHandler<?, ?>) {
            for (Type type : handler.getClass().getGenericInterfaces()) {
                if (type instanceof ParameterizedType p && p.getRawType() == RequestHandler.class
                        && p.getActualTypeArguments()[0] instanceof Class<?> input) {
                    return input;
                }
            }
        }
        return method.getParameterTypes()[0];
    }

    /** The runtime's serializer: its mix-ins for the aws-lambda-java-events types, plain Jackson for the rest. */
    @SuppressWarnings("unchecked")
    private static PojoSerializer<Object> serializer(Class<?> type) {
        return LambdaEventSerializers.isLambdaSupportedEvent(type.getName())
                ? (PojoSerializer<Object>) LambdaEventSerializers.serializerFor(type, FunctionRuntime.class.getClassLoader())
                : (PojoSerializer<Object>) JacksonFactory.getInstance().getSerializer(type);
    }

    /** Lambda's answer to a function error; the stack trace is in the log, not the response. */
    private static String error(Throwable e) {
        Map<String, String> error = new java.util.LinkedHashMap<>();
        error.put("errorMessage", String.valueOf(e.getMessage()));
        error.put("errorType", e.getClass().getName());
        try {
            return new ObjectMapper().writeValueAsString(error);
        } catch (JsonProcessingException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    private static String millis(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.2f", nanos / 1e6);
    }

    /** The JVM's peak resident memory (VmHWM), what Lambda reports; 0 where /proc is not there. */
    private static long maxMemoryUsedMb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) / 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux: nothing to report
        }
        return 0;
    }
}
