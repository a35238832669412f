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

    /** Every statement of a principal's identity policies: a function's role, or a managed policy itself. */
    public List<Statement> identity(String principal) {
        Template.Resource resource = stack.template().resource(principal);
        if (resource.type().equals("AWS::IAM::ManagedPolicy")) {
            return Statement.of(stack.properties(principal).path("PolicyDocument"), principal);
        }
        String role = roleOf(principal);
        JsonNode properties = stack.properties(role);
        List<Statement> out = new ArrayList<>();
        for (JsonNode policy : properties.path("Policies")) {
            out.addAll(Statement.of(policy.path("PolicyDocument"), role + " " + policy.path("PolicyName").asText()));
        }
        String roleName = stack.ref(role);
        for (JsonNode arn : properties.path("ManagedPolicyArns")) {
            out.addAll(managed(arn.asText()));
        }
        for (Template.Resource policy : stack.template().resources().values()) {
            boolean attachable = policy.type().equals("AWS::IAM::ManagedPolicy") || policy.type().equals("AWS::IAM::Policy");
            if (attachable && stack.exists(policy.logicalId())
                    && Statement.texts(stack.properties(policy.logicalId()).path("Roles")).contains(roleName)) {
                out.addAll(Statement.of(stack.properties(policy.logicalId()).path("PolicyDocument"), policy.logicalId()));
            }
        }
        return out;
    }

    /** The resource policy statements that apply to an ARN: its bucket's, queue's, topic's policy. */
    public List<Statement> resource(String arn) {
        List<Statement> out = new ArrayList<>();
        for (Template.Resource policy : stack.template().ofType("AWS::S3::BucketPolicy")) {
            JsonNode p = stack.properties(policy.logicalId());
            String bucket = "arn:aws:s3:::" + p.path("Bucket").asText();
            if (arn.equals(bucket) || arn.startsWith(bucket + "/")) {
                out.addAll(Statement.of(p.path("PolicyDocument"), policy.logicalId()));
            }
        }
        for (Template.Resource policy : stack.template().ofType("AWS::SQS::QueuePolicy")) {
            JsonNode p = stack.properties(policy.logicalId());
            for (Template.Resource queue : stack.template().ofType("AWS::SQS::Queue")) {
                if (stack.getAtt(queue.logicalId(), "Arn").equals(arn)
                        && Statement.texts(p.path("Queues")).contains(stack.ref(queue.logicalId()))) {
                    out.addAll(Statement.of(p.path("PolicyDocument"), policy.logicalId()));
                }
            }
        }
        for (Template.Resource policy : stack.template().ofType("AWS::SNS::TopicPolicy")) {
            JsonNode p = stack.properties(policy.logicalId());
            if (Statement.texts(p.path("Topics")).contains(arn)) {
                out.addAll(Statement.of(p.path("PolicyDocument"), policy.logicalId()));
            }
        }
        return out;
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
