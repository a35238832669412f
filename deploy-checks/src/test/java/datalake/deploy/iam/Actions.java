package datalake.deploy.iam;

import java.util.List;
import java.util.Map;

/**
 * The IAM actions an SDK operation needs (Service Authorization Reference): most are the operation's name
 * in the service's prefix, but not all (HeadObject is s3:GetObject, HeadBucket and ListObjectsV2 are
 * s3:ListBucket, PublishBatch is sns:Publish, the batch calls of SQS their single ones).
 */
final class Actions {
    private static final Map<String, List<String>> EXCEPTIONS = Map.ofEntries(
            Map.entry("S3:HeadObject", List.of("s3:GetObject")),
            Map.entry("S3:HeadObject+VersionId", List.of("s3:GetObjectVersion")),
            Map.entry("S3:GetObject+VersionId", List.of("s3:GetObjectVersion")),
            Map.entry("S3:HeadBucket", List.of("s3:ListBucket")),
            Map.entry("S3:ListObjectsV2", List.of("s3:ListBucket")),
            Map.entry("S3:ListObjects", List.of("s3:ListBucket")),
            Map.entry("S3:DeleteObject+VersionId", List.of("s3:DeleteObjectVersion")),
            Map.entry("Sns:PublishBatch", List.of("sns:Publish")),
            Map.entry("Sqs:SendMessageBatch", List.of("sqs:SendMessage")),
            Map.entry("Sqs:DeleteMessageBatch", List.of("sqs:DeleteMessage")),
            Map.entry("Sqs:ChangeMessageVisibilityBatch", List.of("sqs:ChangeMessageVisibility")));
    private static final Map<String, String> PREFIXES = Map.of("S3", "s3", "DynamoDb", "dynamodb", "Sqs", "sqs", "Sns", "sns");

    private Actions() {
    }

    /** The actions the SDK's {@code service} {@code operation} needs, e.g. ("S3", "HeadObject") → [s3:GetObject]. */
    static List<String> of(String sdkService, String operation) {
        // The SDK names a service by its client's name ("DynamoDb"), its presigners in lower case ("s3").
        String service = PREFIXES.keySet().stream().filter(k -> k.equalsIgnoreCase(sdkService)).findFirst()
                .orElse(sdkService);
        List<String> exception = EXCEPTIONS.get(service + ":" + operation);
        if (exception != null) {
            return exception;
        }
        String prefix = PREFIXES.get(service);
        if (prefix == null || operation.contains("+")) {
            throw new IllegalArgumentException("no IAM action is known for " + service + " " + operation
                    + "; add it to Actions from the Service Authorization Reference.");
        }
        return List.of(prefix + ":" + operation);
    }
}
