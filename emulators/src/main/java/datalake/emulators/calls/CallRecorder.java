package datalake.emulators.calls;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.core.interceptor.SdkInternalExecutionAttribute;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.IdentityProviders;

/**
 * Records the AWS calls the principals of emulated stacks make (service, operation, resource ARN), so
 * that deploy-checks' IamProofIT can evaluate each against the principal's policies in the template.
 * A global SDK interceptor (the emulators test-jar registers it in
 * {@code software/amazon/awssdk/global/handlers/execution.interceptors}), so every client of a test
 * JVM passes here, presigners included; a call is attributed by the access key id it is signed with,
 * which the stack gives each principal ({@link #register}). Calls signed with other keys (a test's own
 * set-up) are not recorded.
 *
 * <p>On only with the system property {@value #DIRECTORY_PROPERTY} (failsafe sets it to
 * {@code target/aws-calls}); the calls are counted in memory and written there, one JSON line per
 * kind of call, when the JVM exits ({@link #flush()} writes at once).
 */
public final class CallRecorder implements ExecutionInterceptor {
    /** The folder the recordings go to; recording is off without it. */
    public static final String DIRECTORY_PROPERTY = "datalake.calls.dir";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ConcurrentMap<String, Holder> PRINCIPALS = new ConcurrentHashMap<>();
    private static final ConcurrentMap<String, StackRecord> STACKS = new ConcurrentHashMap<>();
    private static final ConcurrentMap<Key, LongAdder> CALLS = new ConcurrentHashMap<>();
    private static final Path FILE = file();

    /** Who signs with an access key. */
    private record Holder(StackRecord stack, String principal, String acting) {
    }

    private record Key(String stack, String principal, String acting, String service, String operation, String resource) {
    }

    /** Whether this JVM records (the folder is set). */
    public static boolean enabled() {
        return FILE != null;
    }

    /** Calls signed with {@code accessKeyId} are {@code principal}'s, acting as {@code acting}, in {@code stack}. */
    public static void register(StackRecord stack, String accessKeyId, String principal, String acting) {
        if (FILE == null) {
            return;
        }
        STACKS.put(stack.id(), stack);
        PRINCIPALS.put(accessKeyId, new Holder(stack, principal, acting));
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        if (FILE == null) {
            return;
        }
        Optional<String> keyId = accessKeyId(attributes);
        Holder holder = keyId.map(PRINCIPALS::get).orElse(null);
        if (holder == null) {
            return;
        }
        String service = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME);
        // A call on one version of an object is another IAM action (s3:GetObjectVersion): told apart here.
        String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME)
                + (context.request().getValueForField("VersionId", String.class).isPresent() ? "+VersionId" : "");
        for (String resource : CallResources.of(service, context.request(), holder.stack().account(),
                holder.stack().region())) {
            CALLS.computeIfAbsent(new Key(holder.stack().id(), holder.principal(), holder.acting(), service, operation,
                    resource), k -> new LongAdder()).increment();
        }
    }

    private static Optional<String> accessKeyId(ExecutionAttributes attributes) {
        IdentityProviders providers = attributes.getAttribute(SdkInternalExecutionAttribute.IDENTITY_PROVIDERS);
        if (providers == null) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(providers.identityProvider(AwsCredentialsIdentity.class))
                    .map(p -> p.resolveIdentity().join().accessKeyId());
        } catch (RuntimeException unresolvable) {
            return Optional.empty(); // the call itself will fail on its credentials; nothing to attribute
        }
    }

    /** The calls recorded so far in this JVM. */
    public static List<RecordedCall> calls() {
        List<RecordedCall> out = new ArrayList<>();
        CALLS.forEach((k, n) -> out.add(new RecordedCall(k.stack(), k.principal(), k.acting(), k.service(), k.operation(),
                k.resource(), n.sum())));
        return out;
    }

    /** Writes this JVM's recording (the stacks, then the calls), replacing what it wrote before. */
    public static synchronized void flush() {
        if (FILE == null || STACKS.isEmpty()) {
            return;
        }
        StringBuilder lines = new StringBuilder();
        for (StackRecord stack : STACKS.values()) {
            ObjectNode line = JSON.createObjectNode();
            line.set("stack", JSON.valueToTree(stack));
            lines.append(line).append('\n');
        }
        for (RecordedCall call : calls()) {
            ObjectNode line = JSON.createObjectNode();
            line.set("call", JSON.valueToTree(call));
            lines.append(line).append('\n');
        }
        try {
            Files.createDirectories(FILE.getParent());
            Path temporary = FILE.resolveSibling(FILE.getFileName() + ".tmp");
            Files.writeString(temporary, lines, StandardCharsets.UTF_8);
            Files.move(temporary, FILE, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the recorded AWS calls to " + FILE + ": " + e, e);
        }
    }

    /** Every recording in {@code directory} (written by {@link #flush()} in any JVM). */
    public static Recording read(Path directory) {
        List<StackRecord> stacks = new ArrayList<>();
        List<RecordedCall> calls = new ArrayList<>();
        if (!Files.isDirectory(directory)) {
            return new Recording(stacks, calls);
        }
        try (var files = Files.list(directory)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".jsonl")).sorted().toList()) {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    var node = JSON.readTree(line);
                    if (node.has("stack")) {
                        stacks.add(JSON.treeToValue(node.get("stack"), StackRecord.class));
                    } else if (node.has("call")) {
                        calls.add(JSON.treeToValue(node.get("call"), RecordedCall.class));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the recorded AWS calls in " + directory + ": " + e, e);
        }
        return new Recording(stacks, calls);
    }

    /** The stacks and calls of one or more recordings. */
    public record Recording(List<StackRecord> stacks, List<RecordedCall> calls) {
        public Recording {
            stacks = List.copyOf(stacks);
            calls = List.copyOf(calls);
        }

        public Recording plus(Recording other) {
            List<StackRecord> allStacks = new ArrayList<>(stacks);
            allStacks.addAll(other.stacks);
            List<RecordedCall> allCalls = new ArrayList<>(calls);
            allCalls.addAll(other.calls);
            return new Recording(allStacks, allCalls);
        }

        public Map<String, StackRecord> stacksById() {
            Map<String, StackRecord> byId = new java.util.HashMap<>();
            stacks.forEach(s -> byId.put(s.id(), s));
            return byId;
        }
    }

    private static Path file() {
        String directory = System.getProperty(DIRECTORY_PROPERTY);
        if (directory == null || directory.isBlank()) {
            return null;
        }
        Path file = Path.of(directory).toAbsolutePath()
                .resolve("calls-" + ProcessHandle.current().pid() + "-" + System.nanoTime() + ".jsonl");
        Runtime.getRuntime().addShutdownHook(new Thread(CallRecorder::flush, "aws-call-recorder"));
        return file;
    }
}
