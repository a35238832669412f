package datalake.deploy.iam;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.emulators.template.ResolvedTemplate;
import datalake.emulators.template.Template;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The policies of a resolved stack: each principal's identity policies (a function's role, with its inline
 * policies, the customer managed policies of the template attached to it and the AWS managed policies it
 * names; a standalone managed policy an operator attaches), and the resource policies of buckets, queues,
 * topics and keys.
 */
public final class StackPolicies {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ResolvedTemplate stack;

    public StackPolicies(ResolvedTemplate stack) {
        this.stack = stack;
    }

    public ResolvedTemplate stack() {
        return stack;
    }

    /** The role a function runs as (its Role: Fn::GetAtt [X, Arn]). */
    public String roleOf(String function) {
        String roleArn = stack.properties(function).path("Role").asText();
        for (Template.Resource role : stack.template().ofType("AWS::IAM::Role")) {
            if (stack.exists(role.logicalId()) && stack.getAtt(role.logicalId(), "Arn").equals(roleArn)) {
                return role.logicalId();
            }
        }
        throw new IllegalStateException(function + "'s role " + roleArn + " is not a role of the template.");
    }

    /** The ARN a principal's requests carry: a function's role; a managed policy's operator (a user of the account). */
    public String principalArn(String principal) {
        String type = stack.template().resource(principal).type();
        return type.equals("AWS::Lambda::Function") ? stack.getAtt(roleOf(principal), "Arn")
                : "arn:aws:iam::" + stack.accountId() + ":user/operator-holding-" + principal;
    }

    /**
     * A statement of an identity policy: resolved for this stack, and as the template writes it (null for an
     * AWS managed policy's, which the template does not hold).
     */
    public record Held(Statement statement, JsonNode written) {
    }

    /** Every statement of a principal's identity policies: a function's role, or a managed policy itself. */
    public List<Statement> identity(String principal) {
        return held(principal).stream().map(Held::statement).toList();
    }

    /** {@link #identity} with each statement as written. */
    public List<Held> held(String principal) {
        Template.Resource resource = stack.template().resource(principal);
        if (resource.type().equals("AWS::IAM::ManagedPolicy")) {
            return written(resource.properties().path("PolicyDocument"), principal);
        }
        String role = resource.type().equals("AWS::IAM::Role") ? principal : roleOf(principal);
        JsonNode properties = stack.template().resource(role).properties();
        List<Held> out = new ArrayList<>();
        for (JsonNode policy : properties.path("Policies")) {
            out.addAll(written(policy.path("PolicyDocument"), role + " " + policy.path("PolicyName").asText()));
        }
        for (JsonNode arn : stack.properties(role).path("ManagedPolicyArns")) {
            managed(arn.asText()).forEach(s -> out.add(new Held(s, null)));
        }
        String roleName = stack.ref(role);
        for (Template.Resource policy : stack.template().resources().values()) {
            boolean attachable = policy.type().equals("AWS::IAM::ManagedPolicy") || policy.type().equals("AWS::IAM::Policy");
            if (attachable && stack.exists(policy.logicalId())
                    && Statement.texts(stack.properties(policy.logicalId()).path("Roles")).contains(roleName)) {
                out.addAll(written(policy.properties().path("PolicyDocument"), policy.logicalId()));
            }
        }
        return out;
    }

    /** The statements of a policy document as written, each resolved for this stack. */
    private List<Held> written(JsonNode document, String where) {
        List<Held> out = new ArrayList<>();
        JsonNode statements = document.path("Statement");
        for (JsonNode statement : statements.isArray() ? statements : List.of(statements)) {
            out.add(new Held(new Statement(stack.resolve(statement), where), statement));
        }
        return out;
    }

    /** The resource policy statements that apply to an ARN: its bucket's, queue's, topic's policy (those the stack has). */
    public List<Statement> resource(String arn) {
        List<Statement> out = new ArrayList<>();
        for (Template.Resource policy : existing("AWS::S3::BucketPolicy")) {
            JsonNode p = stack.properties(policy.logicalId());
            String bucket = "arn:aws:s3:::" + p.path("Bucket").asText();
            if (arn.equals(bucket) || arn.startsWith(bucket + "/")) {
                out.addAll(Statement.of(p.path("PolicyDocument"), policy.logicalId()));
            }
        }
        for (Template.Resource policy : existing("AWS::SQS::QueuePolicy")) {
            JsonNode p = stack.properties(policy.logicalId());
            for (Template.Resource queue : stack.template().ofType("AWS::SQS::Queue")) {
                if (stack.getAtt(queue.logicalId(), "Arn").equals(arn)
                        && Statement.texts(p.path("Queues")).contains(stack.ref(queue.logicalId()))) {
                    out.addAll(Statement.of(p.path("PolicyDocument"), policy.logicalId()));
                }
            }
        }
        for (Template.Resource policy : existing("AWS::SNS::TopicPolicy")) {
            JsonNode p = stack.properties(policy.logicalId());
            if (Statement.texts(p.path("Topics")).contains(arn)) {
                out.addAll(Statement.of(p.path("PolicyDocument"), policy.logicalId()));
            }
        }
        return out;
    }

    /** The resources of a type whose condition holds. */
    private List<Template.Resource> existing(String type) {
        return stack.template().ofType(type).stream().filter(r -> stack.exists(r.logicalId())).toList();
    }

    /** A key's policy. */
    public List<Statement> keyPolicy(String key) {
        return Statement.of(stack.properties(key).path("KeyPolicy"), key + " key policy");
    }

    private static List<Statement> managed(String arn) {
        String name = arn.substring(arn.lastIndexOf('/') + 1);
        try (InputStream in = StackPolicies.class.getResourceAsStream("/aws-managed-policies/" + name + ".json")) {
            if (in == null) {
                throw new IllegalStateException("the managed policy " + arn + " has no document in deploy-checks'"
                        + " src/test/resources/aws-managed-policies; add it from AWS's managed policy reference.");
            }
            return Statement.of(JSON.readTree(in), name + " (AWS managed)");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
