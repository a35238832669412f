package datalake.deploy.iam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import datalake.emulators.template.ResolvedTemplate;
import datalake.emulators.template.SamTransform;
import datalake.emulators.template.Template;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every principal that writes to a KMS-encrypted topic or queue of the template may use its key: S3
 * publishing upload notifications, CloudWatch publishing alarms, and the functions publishing through SNS
 * (the key policy's delegation to IAM, and the role's own grant). No emulator has KMS, so this is proven
 * here, statically, with the request context each caller is documented to send:
 *
 * <ul>
 *   <li>SNS names the topic in the encryption context of every KMS call for an encrypted topic
 *       ({@code kms:EncryptionContext:aws:sns:topicArn}), whoever publishes;</li>
 *   <li>a principal of the account publishing calls KMS through SNS: {@code kms:ViaService}
 *       {@code sns.<region>.amazonaws.com} and {@code kms:CallerAccount};</li>
 *   <li>CloudWatch sends {@code aws:SourceArn} (the alarm) and {@code aws:SourceAccount}; S3 is not
 *       documented to send either on that call (the S3 guide's key policy has no condition), so an S3
 *       grant conditioned on them would be a grant that never applies.</li>
 * </ul>
 *
 * Publishing to an encrypted topic takes {@code kms:GenerateDataKey} and {@code kms:Decrypt} (SNS guide,
 * "Key management").
 */
class KeyPolicyTest {
    private static final List<String> PUBLISH_ACTIONS = List.of("kms:GenerateDataKey", "kms:Decrypt");

    @Test
    void everyWriterOfAnEncryptedTopicMayUseItsKey() {
        ResolvedTemplate stack = SamTransform.repositoryTemplate().resolve().build();
        assertEquals(List.of(), problems(new StackPolicies(stack)));
    }

    @Test
    void everyEncryptedTopicHasWritersSoTheCheckIsNeverEmpty() {
        ResolvedTemplate stack = SamTransform.repositoryTemplate().resolve().build();
        StackPolicies policies = new StackPolicies(stack);
        for (Template.Resource topic : stack.template().ofType("AWS::SNS::Topic")) {
            if (stack.properties(topic.logicalId()).has("KmsMasterKeyId")) {
                assertFalse(writers(policies, topic.logicalId()).isEmpty(), topic.logicalId() + " has writers");
            }
        }
    }

    /** Who publishes to a topic, and the request context its KMS calls carry. */
    record Writer(String name, String principal, Map<String, List<String>> context, String identityPrincipal) {
    }

    static List<Writer> writers(StackPolicies policies, String topic) {
        ResolvedTemplate stack = policies.stack();
        String topicArn = stack.ref(topic);
        String account = stack.accountId();
        List<Writer> out = new ArrayList<>();
        for (Template.Resource bucket : stack.template().ofType("AWS::S3::Bucket")) {
            for (JsonNode c : stack.properties(bucket.logicalId()).path("NotificationConfiguration").path("TopicConfigurations")) {
                if (c.path("Topic").asText().equals(topicArn)) {
                    out.add(new Writer(bucket.logicalId() + "'s notifications", "s3.amazonaws.com",
                            Map.of("kms:EncryptionContext:aws:sns:topicArn", List.of(topicArn)), null));
                    break;
                }
            }
        }
        for (Template.Resource alarm : stack.template().ofType("AWS::CloudWatch::Alarm")) {
            JsonNode p = stack.properties(alarm.logicalId());
            List<String> actions = new ArrayList<>();
            for (String field : List.of("AlarmActions", "OKActions", "InsufficientDataActions")) {
                p.path(field).forEach(a -> actions.add(a.asText()));
            }
            if (actions.contains(topicArn)) {
                out.add(new Writer(alarm.logicalId(), "cloudwatch.amazonaws.com", Map.of(
                        "kms:EncryptionContext:aws:sns:topicArn", List.of(topicArn),
                        "aws:SourceArn", List.of(stack.getAtt(alarm.logicalId(), "Arn")),
                        "aws:SourceAccount", List.of(account)), null));
            }
        }
        List<String> principals = new ArrayList<>();
        stack.template().ofType("AWS::Lambda::Function").forEach(f -> principals.add(f.logicalId()));
        stack.template().ofType("AWS::IAM::ManagedPolicy").forEach(p -> principals.add(p.logicalId()));
        for (String principal : principals) {
            if (!stack.exists(principal)) {
                continue;
            }
            Request publish = new Request(policies.principalArn(principal), "sns:Publish", topicArn, Map.of());
            if (Decision.evaluate(policies.identity(principal), publish).allowed()) {
                out.add(new Writer(principal, policies.principalArn(principal), Map.of(
                        "kms:EncryptionContext:aws:sns:topicArn", List.of(topicArn),
                        "kms:ViaService", List.of("sns." + stack.region() + ".amazonaws.com"),
                        "kms:CallerAccount", List.of(account)), principal));
            }
        }
        return out;
    }

    static List<String> problems(StackPolicies policies) {
        ResolvedTemplate stack = policies.stack();
        List<String> problems = new ArrayList<>();
        for (Template.Resource topic : stack.template().ofType("AWS::SNS::Topic")) {
            JsonNode keyId = stack.properties(topic.logicalId()).get("KmsMasterKeyId");
            if (keyId == null || !stack.exists(topic.logicalId())) {
                continue;
            }
            String key = keyOf(stack, keyId.asText());
            String keyArn = stack.getAtt(key, "Arn");
            List<Statement> keyPolicy = policies.keyPolicy(key);
            for (Writer writer : writers(policies, topic.logicalId())) {
                List<Statement> statements = new ArrayList<>(keyPolicy);
                if (writer.identityPrincipal() != null) {
                    statements.addAll(policies.identity(writer.identityPrincipal()));
                }
                for (String action : PUBLISH_ACTIONS) {
                    Request request = new Request(writer.principal(), action, keyArn, writer.context());
                    // KMS: the key policy must take part, itself or by delegating to IAM; an identity policy
                    // alone never gives a key ("Key policies in AWS KMS").
                    Decision decision = Decision.evaluate(statements, request);
                    if (decision.allowed() && decision.because().stream().anyMatch(keyPolicy::contains)) {
                        continue;
                    }
                    boolean delegates = keyPolicy.stream().anyMatch(s -> s.allows() && s.appliesTo(request)
                            && s.delegatesToIam(request));
                    if (delegates && writer.identityPrincipal() != null) {
                        problems.add(writer.name() + " publishes to " + topic.logicalId() + ": " + key
                                + "'s key policy delegates to IAM, but its own policy does not allow " + action
                                + " on " + keyArn);
                    } else {
                        problems.add(writer.name() + " publishes to " + topic.logicalId() + ", but " + key
                                + "'s key policy does not allow " + action + " to " + writer.principal()
                                + " with the context it sends " + writer.context() + nearMiss(keyPolicy, request));
                    }
                }
            }
        }
        return problems;
    }

    /** A statement that would apply but for its conditions, named, so that the failure says why. */
    private static String nearMiss(List<Statement> statements, Request request) {
        for (Statement s : statements) {
            if (s.allows() && s.appliesRegardlessOfConditions(request)) {
                return "; " + s.sid() + " would, but its conditions on " + s.conditionKeys() + " do not hold";
            }
        }
        return "";
    }

    private static String keyOf(ResolvedTemplate stack, String keyIdOrArn) {
        for (Template.Resource key : stack.template().ofType("AWS::KMS::Key")) {
            if (stack.ref(key.logicalId()).equals(keyIdOrArn) || stack.getAtt(key.logicalId(), "Arn").equals(keyIdOrArn)) {
                return key.logicalId();
            }
        }
        throw new IllegalStateException("no key of the template is " + keyIdOrArn);
    }
}
