package datalake.localstack;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@link StackResources#create} made: the names it used and the ARNs and URLs the clients need.
 *
 * @param names the resource names
 * @param options how the stack is wired
 * @param recordsTableArn the records table
 * @param latestTableArn the latest table
 * @param bucketArn the data-lake bucket
 * @param ingestQueueUrl the ingest queue, for ReceiveMessage
 * @param ingestQueueArn the ingest queue
 * @param deadLetterQueueUrl the dead-letter queue (DATALAKE_DLQ_URL)
 * @param deadLetterQueueArn the dead-letter queue
 * @param uploadTopicArn the topic S3 notifies with {@link StackOptions.NotificationRoute#TOPIC}
 * @param reportTopicArn the status-report topic (DATALAKE_REPORT_TOPIC_ARN)
 * @param reportInspectionQueueUrl a queue subscribed (raw) to the report topic, for tests to read reports
 */
public record Stack(
        StackNames names,
        StackOptions options,
        String recordsTableArn,
        String latestTableArn,
        String bucketArn,
        String ingestQueueUrl,
        String ingestQueueArn,
        String deadLetterQueueUrl,
        String deadLetterQueueArn,
        String uploadTopicArn,
        String reportTopicArn,
        String reportInspectionQueueUrl) {

    /**
     * The datalake configuration for this stack (DESIGN.md, "Configuration"): DATALAKE_DYNAMODB_TABLE,
     * DATALAKE_LATEST_TABLE, DATALAKE_REPORT_TOPIC_ARN, DATALAKE_DLQ_URL, DATALAKE_STORAGE_URL, AWS_REGION.
     * Endpoints come from {@link LocalAws#endpointEnvironment()}.
     */
    public Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("DATALAKE_DYNAMODB_TABLE", names.recordsTable());
        env.put("DATALAKE_LATEST_TABLE", names.latestTable());
        env.put("DATALAKE_REPORT_TOPIC_ARN", reportTopicArn);
        env.put("DATALAKE_DLQ_URL", deadLetterQueueUrl);
        env.put("DATALAKE_STORAGE_URL", names.storageUrl());
        env.put("AWS_REGION", names.region());
        return Collections.unmodifiableMap(env);
    }
}
