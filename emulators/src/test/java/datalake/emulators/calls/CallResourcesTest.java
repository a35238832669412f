package datalake.emulators.calls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.s3.model.HeadBucketRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.sns.model.PublishBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;

/** The ARNs a recorded call is on, as IAM evaluates them. */
class CallResourcesTest {
    private static List<String> of(String service, software.amazon.awssdk.core.SdkRequest request) {
        return CallResources.of(service, request, "123456789012", "us-east-1");
    }

    @Test
    void eachServicesRequestNamesItsResource() {
        assertEquals(List.of("arn:aws:s3:::lake/a/b c.log"),
                of("S3", HeadObjectRequest.builder().bucket("lake").key("a/b c.log").build()));
        assertEquals(List.of("arn:aws:s3:::lake"), of("S3", HeadBucketRequest.builder().bucket("lake").build()));
        assertEquals(List.of("arn:aws:dynamodb:us-east-1:123456789012:table/records/index/work-id-index"),
                of("DynamoDb", QueryRequest.builder().tableName("records").indexName("work-id-index").build()));
        // a batch is on every table it names
        assertEquals(Set.of("arn:aws:dynamodb:us-east-1:123456789012:table/records",
                        "arn:aws:dynamodb:us-east-1:123456789012:table/latest"),
                Set.copyOf(of("DynamoDb", BatchWriteItemRequest.builder().requestItems(Map.of(
                        "records", List.of(), "latest", List.of())).build())));
        assertEquals(List.of("arn:aws:sqs:us-east-1:123456789012:lake-ingest-dlq"), of("Sqs", SendMessageBatchRequest.builder()
                .queueUrl("http://127.0.0.1:5000/123456789012/lake-ingest-dlq").build()));
        assertEquals(List.of("arn:aws:sns:us-east-1:123456789012:lake-reports"), of("Sns",
                PublishBatchRequest.builder().topicArn("arn:aws:sns:us-east-1:123456789012:lake-reports").build()));
        assertEquals(List.of("*"), of("DynamoDb", ListTablesRequest.builder().build()));
    }
}
