package datalake.ingester;

import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;

import datalake.ingester.IngestStack.ReceivedReport;
import datalake.localstack.AwsClients;
import datalake.localstack.LocalAws;
import datalake.localstack.StackResources;
import datalake.records.StatusReport;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/** The scenarios against moto (S3, SQS, SNS) and in-process DynamoDB Local: no Docker needed. */
class IngesterIT extends IngesterScenarios {
    @RegisterExtension
    static final LocalAws AWS = LocalAws.shared();

    /** Also used by {@link IngesterMemoryIT}. */
    static final IngestBackend MOTO = new IngestBackend() {
        @Override
        public String name() {
            return "moto + DynamoDB Local";
        }

        @Override
        public S3Client s3() {
            return AWS.s3();
        }

        @Override
        public SqsClient sqs() {
            return AWS.sqs();
        }

        @Override
        public SnsClient sns() {
            return AWS.sns();
        }

        @Override
        public DynamoDbClient dynamoDb() {
            return AWS.dynamoDb();
        }

        @Override
        public DynamoDbClientBuilder dynamoDbBuilder() {
            return AwsClients.dynamoDbBuilder(AWS.dynamoDbEndpoint());
        }

        @Override
        public Map<String, String> endpointEnvironment() {
            return AWS.endpointEnvironment();
        }
    };

    @Override
    IngestBackend backend() {
        return MOTO;
    }

    @Test
    void dynamoDbStoppedForAMomentSendsTheBatchBackAndNothingIsLost() {
        // given an upload, and DynamoDB Local stopped
        IngestStack s = stack();
        DynamoDbClient dynamoDb = AwsClients.dynamoDbBuilder(AWS.dynamoDbEndpoint())
                .overrideConfiguration(o -> o.retryStrategy(RetryMode.STANDARD)).build();
        IngesterHandler handler = s.handler(s.config(), dynamoDb);
        s.put("f.log", metadata("f", START, null));
        List<Message> batch = s.receive(1);
        AWS.dynamoDbLocal().stop();
        Set<String> retried;
        try {
            // when the batch is handled
            retried = s.handle(handler, batch);
        } finally {
            AWS.dynamoDbLocal().start();
        }

        // then the message comes back, and no report claims anything
        assertEquals(Set.of(batch.get(0).messageId()), retried);
        s.assertEmpty(s.stack.reportInspectionQueueUrl());

        // when DynamoDB is back (empty: DynamoDB Local keeps tables in memory) and SQS redelivers
        StackResources.on(AWS).create(s.stack.names(), s.stack.options());
        s.expireVisibility(batch);
        assertEquals(Set.of(), s.handle(handler, s.receive(1)));

        // then the file is indexed and reported once
        assertEquals(List.of("f"), s.records().stream().map(r -> r.metadata().id()).toList());
        List<ReceivedReport> reports = s.reports(1);
        assertEquals(StatusReport.Status.SUCCESS, reports.get(0).report().status());
        dynamoDb.close();
    }
}
