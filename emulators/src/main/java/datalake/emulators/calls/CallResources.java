package datalake.emulators.calls;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awssdk.core.SdkRequest;

/**
 * The resources an SDK request acts on, as the ARNs IAM evaluates: S3 buckets and objects, DynamoDB
 * tables and their indexes (every table of a batch), SQS queues (from their URL) and SNS topics. Calls on
 * no resource (ListTables) are on "*".
 */
final class CallResources {
    private CallResources() {
    }

    static List<String> of(String service, SdkRequest request, String account, String region) {
        List<String> out = new ArrayList<>();
        switch (service.toLowerCase(Locale.ROOT)) {
            case "s3" -> request.getValueForField("Bucket", String.class).ifPresent(bucket -> out.add(
                    request.getValueForField("Key", String.class)
                            .map(key -> "arn:aws:s3:::" + bucket + "/" + key)
                            .orElse("arn:aws:s3:::" + bucket)));
            case "dynamodb" -> {
                String tables = "arn:aws:dynamodb:" + region + ":" + account + ":table/";
                request.getValueForField("TableName", String.class).ifPresent(table -> out.add(
                        request.getValueForField("IndexName", String.class)
                                .map(index -> tables + table + "/index/" + index)
                                .orElse(tables + table)));
                request.getValueForField("RequestItems", Map.class).ifPresent(items -> {
                    for (Object table : items.keySet()) {
                        out.add(tables + table);
                    }
                });
            }
            case "sqs" -> request.getValueForField("QueueUrl", String.class).ifPresent(url -> {
                String[] path = URI.create(url).getPath().split("/", -1);
                out.add("arn:aws:sqs:" + region + ":" + path[path.length - 2] + ":" + path[path.length - 1]);
            });
            case "sns" -> request.getValueForField("TopicArn", String.class).ifPresent(out::add);
            default -> {
                // a service nothing here records by resource
            }
        }
        if (out.isEmpty()) {
            out.add("*");
        }
        return out;
    }
}
