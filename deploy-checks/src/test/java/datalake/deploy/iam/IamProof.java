package datalake.deploy.iam;

import com.fasterxml.jackson.databind.JsonNode;
import datalake.emulators.calls.CallRecorder;
import datalake.emulators.calls.RecordedCall;
import datalake.emulators.calls.StackRecord;
import datalake.emulators.template.ResolvedTemplate;
import datalake.emulators.template.SamTransform;
import datalake.emulators.template.Template;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The recorded AWS calls of the integration tests, each evaluated against its principal's policies in the
 * template its stack was built from (resolved with the stack's parameters, account and region): the
 * identity statements (a function's role with SAM's managed policies, or the managed policy an operator
 * holds) and the resource policy of what the call is on (a bucket's, queue's or topic's). A call is allowed
 * when a statement allows it and none denies it. The request carries what a call from Lambda carries:
 * TLS ({@code aws:SecureTransport} true), the principal's account and the region.
 */
final class IamProof {
    /** A recorded call and what IAM answers it, for one of the actions its operation needs. */
    record Evaluated(RecordedCall call, String action, boolean allowed, List<Statement> because) {
        @Override
        public String toString() {
            return call.principal() + " (" + call.acting() + ") " + call.service() + " " + call.operation() + " = " + action
                    + " on " + call.resource() + " x" + call.count() + (allowed ? "" : because.isEmpty()
                    ? ": no statement allows it"
                    : ": denied by " + because.stream().map(s -> s.where() + " " + s.sid()).toList());
        }
    }

    private final CallRecorder.Recording recording;
    private final Map<String, StackPolicies> policies = new HashMap<>();
    private final List<Evaluated> evaluated = new ArrayList<>();
    private final Set<Grant> exercised = new LinkedHashSet<>();

    IamProof(CallRecorder.Recording recording) {
        this.recording = recording;
        Map<String, StackRecord> stacks = recording.stacksById();
        for (RecordedCall call : recording.calls()) {
            StackRecord stack = stacks.get(call.stack());
            if (stack == null) {
                throw new IllegalStateException("a call names the stack " + call.stack() + ", which no recording describes.");
            }
            StackPolicies stackPolicies = policies.computeIfAbsent(stack.id(), id -> new StackPolicies(resolve(stack)));
            for (String action : Actions.of(call.service(), call.operation())) {
                evaluate(stackPolicies, call, action);
            }
        }
    }

    /** Every recording under the repository's modules' {@code target/aws-calls}. */
    static CallRecorder.Recording read(Path repositoryRoot) {
        CallRecorder.Recording all = new CallRecorder.Recording(List.of(), List.of());
        try (var modules = Files.list(repositoryRoot)) {
            for (Path module : modules.filter(Files::isDirectory).sorted().toList()) {
                all = all.plus(CallRecorder.read(module.resolve("target/aws-calls")));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return all;
    }

    /** The stack's template resolved with these parameters (the recorded ones, or others to compare with). */
    static ResolvedTemplate resolve(StackRecord stack, Map<String, String> parameters) {
        return SamTransform.cached(stack.templateId()).resolve().parameters(parameters)
                .account(stack.account(), stack.region()).stackName(stack.stackName()).build();
    }

    private static ResolvedTemplate resolve(StackRecord stack) {
        return resolve(stack, stack.parameters());
    }

    /** What IAM answers a call's action under a stack's policies. */
    static Decision decide(StackPolicies stack, RecordedCall call, String action) {
        List<Statement> all = new ArrayList<>(stack.identity(call.principal()));
        all.addAll(stack.resource(call.resource()));
        return Decision.evaluate(all, request(stack, call, action));
    }

    private static Request request(StackPolicies stack, RecordedCall call, String action) {
        ResolvedTemplate resolved = stack.stack();
        return new Request(stack.principalArn(call.principal()), action, call.resource(), Map.of(
                "aws:SecureTransport", List.of("true"),
                "aws:PrincipalAccount", List.of(resolved.accountId()),
                "aws:RequestedRegion", List.of(resolved.region())));
    }

    private void evaluate(StackPolicies stack, RecordedCall call, String action) {
        Request request = request(stack, call, action);
        List<StackPolicies.Held> held = stack.held(call.principal());
        Decision decision = decide(stack, call, action);
        evaluated.add(new Evaluated(call, action, decision.allowed(), decision.because()));
        if (!decision.allowed()) {
            return;
        }
        for (StackPolicies.Held h : held) {
            if (h.written() != null && h.statement().allows() && h.statement().appliesTo(request)) {
                exercised.addAll(grantsUsed(call.principal(), h, request));
            }
        }
    }

    /** The grants of one statement a request used: the actions and the resources that matched it. */
    private static List<Grant> grantsUsed(String principal, StackPolicies.Held held, Request request) {
        List<Grant> out = new ArrayList<>();
        List<String> written = Grant.written(held.written());
        List<String> resolved = Statement.texts(held.statement().json().get("Resource"));
        for (String action : held.statement().actions()) {
            if (!Statement.glob(action, request.action(), true)) {
                continue;
            }
            for (int i = 0; i < resolved.size() && i < written.size(); i++) {
                if (Statement.glob(resolved.get(i), request.resource(), false)) {
                    out.add(new Grant(principal, held.statement().sid(), action, written.get(i)));
                }
            }
        }
        return out;
    }

    List<Evaluated> evaluated() {
        return evaluated;
    }

    Set<Grant> exercised() {
        return exercised;
    }

    /**
     * Every Allow grant of the template's identity policies: the functions' (under the function's name), the
     * managed policies', and other roles' (under the role's name). Statements must have a Sid, so that a
     * grant can be named in the list of those no test exercises.
     */
    static List<Grant> grants(Template template) {
        ResolvedTemplate resolved = template.resolve().build();
        StackPolicies policies = new StackPolicies(resolved);
        Map<String, String> holders = new TreeMap<>();
        for (Template.Resource function : template.ofType("AWS::Lambda::Function")) {
            holders.put(policies.roleOf(function.logicalId()), function.logicalId());
        }
        List<Grant> out = new ArrayList<>();
        for (Template.Resource resource : template.resources().values()) {
            String principal = switch (resource.type()) {
                case "AWS::IAM::Role" -> holders.getOrDefault(resource.logicalId(), resource.logicalId());
                case "AWS::IAM::ManagedPolicy" -> resource.logicalId();
                default -> null;
            };
            if (principal == null) {
                continue;
            }
            List<JsonNode> documents = new ArrayList<>();
            resource.properties().path("Policies").forEach(p -> documents.add(p.path("PolicyDocument")));
            if (resource.properties().has("PolicyDocument")) {
                documents.add(resource.properties().path("PolicyDocument"));
            }
            for (JsonNode document : documents) {
                for (JsonNode statement : document.path("Statement")) {
                    if (!statement.path("Effect").asText().equals("Allow")) {
                        continue;
                    }
                    if (!statement.has("Sid")) {
                        throw new IllegalStateException("a statement of " + resource.logicalId() + " has no Sid: give it"
                                + " one, so that its grants can be named (" + statement + ")");
                    }
                    for (String action : Statement.texts(statement.get("Action"))) {
                        for (String written : Grant.written(statement)) {
                            out.add(new Grant(principal, statement.path("Sid").asText(), action, written));
                        }
                    }
                }
            }
        }
        return out;
    }

    /** Calls by principal and acting, then operation, with their counts. */
    String summary() {
        Map<String, Map<String, Long>> byPrincipal = new TreeMap<>();
        for (RecordedCall call : recording.calls()) {
            byPrincipal.computeIfAbsent(call.principal() + " (" + call.acting() + ")", k -> new TreeMap<>())
                    .merge(call.service() + " " + call.operation(), call.count(), Long::sum);
        }
        StringBuilder out = new StringBuilder("AWS calls recorded in the integration tests (" + recording.stacks().size()
                + " stacks), by principal and operation:\n");
        byPrincipal.forEach((principal, operations) -> {
            out.append("  ").append(principal).append(": ").append(operations.values().stream().mapToLong(Long::longValue)
                    .sum()).append('\n');
            operations.forEach((operation, count) -> out.append("    ").append(operation).append(' ').append(count)
                    .append('\n'));
        });
        return out.toString();
    }
}
