package datalake.local;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.emulators.DatalakeStack;
import datalake.emulators.LocalEndpoints;
import datalake.emulators.stack.FunctionSettings;
import datalake.emulators.stack.TemplateStack;
import datalake.emulators.template.ResolvedTemplate;
import datalake.emulators.template.Template;
import datalake.emulators.template.TemplateException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

/**
 * {@code scripts/invoke.sh}: {@code sam local invoke} without Docker. Invokes one function of template.yaml
 * once, on the running local stack (scripts/local.sh): the stack resolved for the same parameters by the
 * runner's own call ({@link LocalRunner#stack}), the function's handler, environment, timeout and memory
 * from it, run by {@link FunctionRuntime} in a JVM of its own. As sam does, the response goes to standard
 * output and the log (START, the function's lines, END, REPORT) to standard error.
 *
 * <p>It makes no stack: unless the emulators answer and hold the stack's queues, bucket and tables, it
 * stops with one sentence. The runner's call then keeps what exists; parameters other than the runner's
 * (beyond the names) bring the stack to them, as a {@code sam deploy} of them would.
 *
 * <p>Exit status: 0 the function answered, 1 it failed (an exception, or its timeout), 2 bad arguments,
 * 3 no local stack answers for these ports and parameters.
 */
final class Invoke {
    static final int FUNCTION_ERROR = FunctionRuntime.FUNCTION_ERROR;
    static final int USAGE = 2;
    static final int NO_STACK = 3;
    /** Lambda's init phase has its own 10 s, apart from the function's timeout. */
    private static final long INIT_SECONDS = 10;
    private static final ObjectMapper JSON = new ObjectMapper();

    private Invoke() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        System.exit(run(args, System.getenv(), System.in::readAllBytes, System.err));
    }

    /** Runs the invocation; the function's response reaches this JVM's standard output directly. */
    static int run(String[] args, Map<String, String> env, StandardInput stdin, PrintStream err)
            throws IOException, InterruptedException {
        InvokeOptions options;
        byte[] event;
        try {
            options = InvokeOptions.parse(args, env);
            event = event(options, stdin);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage() + " (scripts/invoke.sh --help lists the options)");
            return USAGE;
        }
        Optional<String> down = down(options.moto(), "moto").or(() -> down(options.dynamoDb(), "dynalite"));
        if (down.isPresent()) {
            err.println("error: the local stack is not running: " + down.get() + "; start scripts/local.sh first"
                    + " (with the DATALAKE_LOCAL_* ports it used).");
            return NO_STACK;
        }
        LocalEndpoints endpoints = new LocalEndpoints(options.dynamoDb(), options.moto());
        FunctionSettings function;
        String runtime;
        try {
            // Resolved first without creating anything: invoke.sh uses the local stack, it never makes one.
            ResolvedTemplate resolved = TemplateStack.builder(endpoints).parameters(options.parameters())
                    .onlyTypes(Set.of()).build().resolved();
            List<String> functions = functions(resolved);
            if (!functions.contains(options.function())) {
                err.println("error: template.yaml has no function " + options.function() + "; its functions are "
                        + String.join(", ", functions) + ".");
                return USAGE;
            }
            Optional<String> missing = missing(endpoints, resolved);
            if (missing.isPresent()) {
                err.println("error: the local stack has no " + missing.get() + ": scripts/local.sh is not running with"
                        + " these parameters (give DATALAKE_LOCAL_PREFIX and --parameter-overrides as it was given them).");
                return NO_STACK;
            }
            DatalakeStack stack = LocalRunner.stack(endpoints, options.parameters());
            function = stack.stack().function(options.function());
            runtime = stack.resolved().properties(options.function()).path("Runtime").asText();
        } catch (TemplateException e) {
            err.println("error: " + e.getMessage());
            return USAGE;
        }
        err.println("Invoking " + function.handler() + " (" + runtime + ")");
        err.flush();
        return runFunction(function, runtime, event, err);
    }

    /** Lambda's JVM for the function: its memory as the machine's, its environment and nothing else. */
    private static int runFunction(FunctionSettings function, String runtime, byte[] event, PrintStream err)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:MaxRAM=" + function.memoryMb() + "m", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), FunctionRuntime.class.getName(),
                Long.toString(function.timeout().toSeconds())));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT);
        Map<String, String> childEnv = builder.environment();
        String path = childEnv.get("PATH");
        childEnv.clear();
        childEnv.put("PATH", path == null ? "/usr/bin:/bin" : path);
        childEnv.putAll(lambdaEnvironment(function, runtime));
        Process process = builder.start();
        try (OutputStream in = process.getOutputStream()) {
            in.write(event);
        }
        if (!process.waitFor(function.timeout().toSeconds() + INIT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            String message = "Task timed out after " + function.timeout().toSeconds() + ".00 seconds";
            err.println(message);
            System.out.println(JSON.writeValueAsString(Map.of("errorMessage", message, "errorType", "Sandbox.Timedout")));
            return FUNCTION_ERROR;
        }
        return process.exitValue();
    }

    /** The function's environment, with what Lambda's own runtime sets beside it. */
    static Map<String, String> lambdaEnvironment(FunctionSettings function, String runtime) {
        Map<String, String> env = new LinkedHashMap<>(function.environment());
        env.put("_HANDLER", function.handler());
        env.put("AWS_EXECUTION_ENV", "AWS_Lambda_" + runtime);
        env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", Integer.toString(function.memoryMb()));
        env.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
        env.put("AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/" + function.functionName());
        env.put("TZ", "UTC");
        return env;
    }

    /**
     * The event's bytes, checked to be a JSON document (empty is none); a bad one is an
     * IllegalArgumentException naming where it was.
     */
    static byte[] event(InvokeOptions options, StandardInput stdin) {
        if (options.noEvent()) {
            return "{}".getBytes(StandardCharsets.UTF_8);
        }
        String source = options.event().map(Path::toString).orElse("standard input");
        byte[] event;
        try {
            event = options.event().isPresent() ? Files.readAllBytes(options.event().get()) : stdin.read();
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("there is no event file " + e.getFile() + ".");
        } catch (IOException e) {
            throw new IllegalArgumentException("the event in " + source + " could not be read: " + e.getMessage() + ".");
        }
        JsonNode tree;
        try {
            tree = JSON.readTree(event);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("the event in " + source + " is not JSON (" + e.getOriginalMessage() + ").");
        } catch (IOException e) {
            throw new IllegalArgumentException("the event in " + source + " could not be read: " + e.getMessage() + ".");
        }
        // Jackson reads no content (or white space only) as a missing node, not as an error.
        if (tree == null || tree.isMissingNode()) {
            throw new IllegalArgumentException("the event in " + source + " is empty.");
        }
        return event;
    }

    private static Optional<String> down(URI endpoint, String emulator) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(endpoint.getHost(), endpoint.getPort()), 2000);
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("nothing answers at " + endpoint + " (" + emulator + ")");
        }
    }

    private static List<String> functions(ResolvedTemplate resolved) {
        return resolved.template().resources().values().stream()
                .filter(r -> r.type().equals("AWS::Lambda::Function") && resolved.exists(r.logicalId()))
                .map(Template.Resource::logicalId).sorted().toList();
    }

    /** The first of the stack's queues, buckets and tables that the emulators do not hold ("queue datalake-ingest"). */
    private static Optional<String> missing(LocalEndpoints aws, ResolvedTemplate resolved) {
        for (Template.Resource r : resolved.template().resources().values()) {
            if (!resolved.exists(r.logicalId())) {
                continue;
            }
            String id = r.logicalId();
            try {
                switch (r.type()) {
                    case "AWS::SQS::Queue" -> aws.sqs().getQueueUrl(q -> q.queueName(resolved.getAtt(id, "QueueName")));
                    case "AWS::S3::Bucket" -> aws.s3().headBucket(b -> b.bucket(resolved.ref(id)));
                    case "AWS::DynamoDB::Table" -> aws.dynamoDb().describeTable(t -> t.tableName(resolved.ref(id)));
                    default -> {
                        // the functions use nothing else that an emulator holds by name
                    }
                }
            } catch (QueueDoesNotExistException e) {
                return Optional.of("queue " + resolved.getAtt(id, "QueueName"));
            } catch (NoSuchBucketException e) {
                return Optional.of("bucket " + resolved.ref(id));
            } catch (ResourceNotFoundException e) {
                return Optional.of("table " + resolved.ref(id));
            } catch (AwsServiceException e) {
                if (e.statusCode() == 404) { // HeadBucket's 404 has no body, so no NoSuchBucket code
                    return Optional.of("bucket " + resolved.ref(id));
                }
                throw e;
            }
        }
        return Optional.empty();
    }

    /** Standard input, read only when the event comes from it. */
    @FunctionalInterface
    interface StandardInput {
        byte[] read() throws IOException;
    }
}
