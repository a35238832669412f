package datalake.emulators.template;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.UUID;

/**
 * What {@code Ref} and {@code Fn::GetAtt} give for each resource type, locally: the name the template
 * sets (or, unnamed, {@code <stack>-<LogicalId>} where CloudFormation would add a random suffix), and
 * the ARNs and URLs AWS builds from it in the stack's account and region. moto answers with the same ARNs
 * for its account; identifiers AWS makes up (a KMS key id, an API id) are derived from the stack and
 * logical id, so they are stable. A type without a convention here fails loudly: add it, or keep it out
 * of what the local stack reads.
 */
final class PhysicalIds {
    private PhysicalIds() {
    }

    static JsonNode ref(ResolvedTemplate stack, Template.Resource resource) {
        String id = resource.logicalId();
        return new TextNode(switch (resource.type()) {
            case "AWS::SQS::Queue" -> "https://sqs." + stack.region() + "." + suffix(stack) + "/" + stack.accountId() + "/"
                    + queueName(stack, resource);
            case "AWS::SNS::Topic" -> topicArn(stack, resource);
            case "AWS::SNS::Subscription" -> ResolvedTemplate.text(properties(stack, resource).path("TopicArn")) + ":"
                    + made(stack, id);
            case "AWS::S3::Bucket" -> bucketName(stack, resource);
            case "AWS::DynamoDB::Table" -> named(stack, resource, "TableName");
            case "AWS::KMS::Key" -> made(stack, id);
            case "AWS::IAM::Role" -> named(stack, resource, "RoleName");
            case "AWS::IAM::ManagedPolicy" -> "arn:" + partition(stack) + ":iam::" + stack.accountId() + ":policy"
                    + path(stack, resource) + named(stack, resource, "ManagedPolicyName");
            case "AWS::Lambda::Function" -> named(stack, resource, "FunctionName");
            case "AWS::Lambda::Version" -> functionArn(stack, properties(stack, resource).path("FunctionName")) + ":"
                    + versionNumber(stack, resource);
            case "AWS::Lambda::Alias" -> functionArn(stack, properties(stack, resource).path("FunctionName")) + ":"
                    + ResolvedTemplate.text(properties(stack, resource).path("Name"));
            case "AWS::Logs::LogGroup" -> named(stack, resource, "LogGroupName");
            case "AWS::Events::Rule" -> named(stack, resource, "Name");
            case "AWS::CloudWatch::Alarm" -> named(stack, resource, "AlarmName");
            case "AWS::CloudWatch::Dashboard" -> named(stack, resource, "DashboardName");
            case "AWS::ApiGatewayV2::Stage" -> ResolvedTemplate.text(properties(stack, resource).path("StageName"));
            case "AWS::ApiGatewayV2::Api", "AWS::ApiGatewayV2::Integration", "AWS::ApiGatewayV2::Route",
                    "AWS::ApiGatewayV2::Authorizer" -> shortId(stack, id);
            // CloudFormation's id of a scalable target: resource id, dimension and namespace joined by "|".
            case "AWS::ApplicationAutoScaling::ScalableTarget" -> String.join("|",
                    ResolvedTemplate.text(properties(stack, resource).path("ResourceId")),
                    ResolvedTemplate.text(properties(stack, resource).path("ScalableDimension")),
                    ResolvedTemplate.text(properties(stack, resource).path("ServiceNamespace")));
            case "AWS::ApplicationAutoScaling::ScalingPolicy" -> scalingPolicyArn(stack, resource);
            case "AWS::Lambda::Permission", "AWS::Lambda::EventSourceMapping", "AWS::SNS::TopicPolicy",
                    "AWS::SQS::QueuePolicy", "AWS::S3::BucketPolicy", "AWS::IAM::Policy" -> made(stack, id);
            default -> throw new TemplateException("no local convention for the Ref of " + resource.type()
                    + " (resource " + id + ").");
        });
    }

    static JsonNode getAtt(ResolvedTemplate stack, Template.Resource resource, String attribute) {
        String type = resource.type();
        String value = switch (type + "." + attribute) {
            case "AWS::SQS::Queue.Arn" -> "arn:" + partition(stack) + ":sqs:" + stack.region() + ":" + stack.accountId()
                    + ":" + queueName(stack, resource);
            case "AWS::SQS::Queue.QueueName" -> queueName(stack, resource);
            case "AWS::SQS::Queue.QueueUrl" -> stack.ref(resource.logicalId());
            case "AWS::SNS::Topic.TopicArn" -> topicArn(stack, resource);
            case "AWS::SNS::Topic.TopicName" -> named(stack, resource, "TopicName");
            case "AWS::S3::Bucket.Arn" -> "arn:" + partition(stack) + ":s3:::" + bucketName(stack, resource);
            case "AWS::S3::Bucket.DomainName" -> bucketName(stack, resource) + ".s3." + suffix(stack);
            case "AWS::S3::Bucket.RegionalDomainName" -> bucketName(stack, resource) + ".s3." + stack.region() + "."
                    + suffix(stack);
            case "AWS::DynamoDB::Table.Arn" -> "arn:" + partition(stack) + ":dynamodb:" + stack.region() + ":"
                    + stack.accountId() + ":table/" + named(stack, resource, "TableName");
            case "AWS::KMS::Key.Arn" -> "arn:" + partition(stack) + ":kms:" + stack.region() + ":" + stack.accountId()
                    + ":key/" + made(stack, resource.logicalId());
            case "AWS::KMS::Key.KeyId" -> made(stack, resource.logicalId());
            case "AWS::IAM::Role.Arn" -> "arn:" + partition(stack) + ":iam::" + stack.accountId() + ":role"
                    + path(stack, resource) + named(stack, resource, "RoleName");
            case "AWS::IAM::Role.RoleId" -> "AROA" + shortId(stack, resource.logicalId()).toUpperCase(Locale.ROOT);
            case "AWS::IAM::ManagedPolicy.PolicyArn" -> stack.ref(resource.logicalId());
            case "AWS::Lambda::Function.Arn" -> functionArn(stack, new TextNode(named(stack, resource, "FunctionName")));
            case "AWS::Lambda::Version.Version" -> Integer.toString(versionNumber(stack, resource));
            case "AWS::ApplicationAutoScaling::ScalingPolicy.Arn" -> scalingPolicyArn(stack, resource);
            case "AWS::Events::Rule.Arn" -> "arn:" + partition(stack) + ":events:" + stack.region() + ":" + stack.accountId()
                    + ":rule/" + named(stack, resource, "Name");
            case "AWS::Logs::LogGroup.Arn" -> "arn:" + partition(stack) + ":logs:" + stack.region() + ":"
                    + stack.accountId() + ":log-group:" + named(stack, resource, "LogGroupName") + ":*";
            case "AWS::CloudWatch::Alarm.Arn" -> "arn:" + partition(stack) + ":cloudwatch:" + stack.region() + ":"
                    + stack.accountId() + ":alarm:" + named(stack, resource, "AlarmName");
            case "AWS::ApiGatewayV2::Api.ApiId" -> shortId(stack, resource.logicalId());
            case "AWS::ApiGatewayV2::Api.ApiEndpoint" -> "https://" + shortId(stack, resource.logicalId())
                    + ".execute-api." + stack.region() + "." + suffix(stack);
            default -> throw new TemplateException("no local convention for Fn::GetAtt " + resource.logicalId() + "."
                    + attribute + " (" + type + ").");
        };
        return new TextNode(value);
    }

    /**
     * Lambda numbers a function's versions 1, 2, ... as they are published; locally, in the template's order
     * of the versions of that function that exist (CloudFormation publishes them as dependencies allow).
     */
    private static int versionNumber(ResolvedTemplate stack, Template.Resource version) {
        String function = functionArn(stack, properties(stack, version).path("FunctionName"));
        int number = 0;
        for (Template.Resource other : stack.template().ofType("AWS::Lambda::Version")) {
            if (stack.exists(other.logicalId())
                    && function.equals(functionArn(stack, properties(stack, other).path("FunctionName")))) {
                number++;
            }
            if (other.logicalId().equals(version.logicalId())) {
                return number;
            }
        }
        throw new TemplateException("the version " + version.logicalId() + " is not in the template.");
    }

    /**
     * A scaling policy's Ref and Arn, as Application Auto Scaling's PolicyARN: the policy's id (a UUID AWS
     * makes up, here derived), its target's service namespace and resource id, and its name.
     */
    private static String scalingPolicyArn(ResolvedTemplate stack, Template.Resource policy) {
        ObjectNode p = properties(stack, policy);
        String namespace;
        String resourceId;
        if (p.has("ScalingTargetId")) {
            // The Ref of a scalable target: resource id, dimension and namespace joined by "|".
            String[] target = ResolvedTemplate.text(p.get("ScalingTargetId")).split("\\|", -1);
            resourceId = target[0];
            namespace = target[target.length - 1];
        } else {
            resourceId = ResolvedTemplate.text(p.path("ResourceId"));
            namespace = ResolvedTemplate.text(p.path("ServiceNamespace"));
        }
        return "arn:" + partition(stack) + ":autoscaling:" + stack.region() + ":" + stack.accountId() + ":scalingPolicy:"
                + made(stack, policy.logicalId()) + ":resource/" + namespace + "/" + resourceId + ":policyName/"
                + ResolvedTemplate.text(p.path("PolicyName"));
    }

    /** A Lambda function's ARN from a FunctionName property: a name, or already an ARN (a Ref of a function). */
    private static String functionArn(ResolvedTemplate stack, JsonNode functionName) {
        String name = ResolvedTemplate.text(functionName);
        return name.startsWith("arn:") ? name : "arn:" + partition(stack) + ":lambda:" + stack.region() + ":"
                + stack.accountId() + ":function:" + name;
    }

    private static String queueName(ResolvedTemplate stack, Template.Resource resource) {
        JsonNode name = properties(stack, resource).get("QueueName");
        if (name != null) {
            return ResolvedTemplate.text(name);
        }
        String generated = generated(stack, resource.logicalId(), 80);
        return properties(stack, resource).path("FifoQueue").asBoolean(false) ? generated + ".fifo" : generated;
    }

    private static String topicArn(ResolvedTemplate stack, Template.Resource resource) {
        return "arn:" + partition(stack) + ":sns:" + stack.region() + ":" + stack.accountId() + ":"
                + named(stack, resource, "TopicName");
    }

    private static String bucketName(ResolvedTemplate stack, Template.Resource resource) {
        JsonNode name = properties(stack, resource).get("BucketName");
        return name != null ? ResolvedTemplate.text(name) : generated(stack, resource.logicalId(), 63).toLowerCase(Locale.ROOT);
    }

    private static String named(ResolvedTemplate stack, Template.Resource resource, String property) {
        JsonNode name = properties(stack, resource).get(property);
        return name != null ? ResolvedTemplate.text(name) : generated(stack, resource.logicalId(), 64);
    }

    private static String path(ResolvedTemplate stack, Template.Resource resource) {
        JsonNode path = properties(stack, resource).get("Path");
        return path == null ? "/" : ResolvedTemplate.text(path);
    }

    private static ObjectNode properties(ResolvedTemplate stack, Template.Resource resource) {
        return stack.properties(resource.logicalId());
    }

    /** {@code <stack>-<LogicalId>}, cut to what the service allows, as CloudFormation names an unnamed resource. */
    private static String generated(ResolvedTemplate stack, String logicalId, int maxLength) {
        String name = stack.pseudoParameter("AWS::StackName") + "-" + logicalId;
        return name.length() > maxLength ? name.substring(0, maxLength) : name;
    }

    /** A stable UUID for an identifier AWS would make up. */
    private static String made(ResolvedTemplate stack, String logicalId) {
        return UUID.nameUUIDFromBytes((stack.accountId() + "/" + stack.region() + "/"
                + stack.pseudoParameter("AWS::StackName") + "/" + logicalId).getBytes(StandardCharsets.UTF_8)).toString();
    }

    /** Ten lower-case letters and digits, as API Gateway's ids. */
    private static String shortId(ResolvedTemplate stack, String logicalId) {
        return made(stack, logicalId).replace("-", "").substring(0, 10);
    }

    private static String partition(ResolvedTemplate stack) {
        return stack.pseudoParameter("AWS::Partition");
    }

    private static String suffix(ResolvedTemplate stack) {
        return stack.pseudoParameter("AWS::URLSuffix");
    }
}
