package datalake.ingester;

import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;

import datalake.emulators.AwsEndpoints;
import datalake.emulators.DatalakeStack;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.ingester.IngesterHarness.ReceivedReport;
import datalake.records.StatusReport;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.model.Message;

/** The scenarios against moto (S3, SQS, SNS) and dynalite: no Docker needed. */
@ExtendWith(EmulatorsExtension.class)
class IngesterIT extends IngesterScenarios {
    static final Emulators AWS = Emulators.shared();

    @Override
    AwsEndpoints backend() {
        return AWS;
    }

    @Test
    void dynamoDbStoppedForAMomentSendsTheBatchBackAndNothingIsLost() {
        // given an upload, and dynalite stopped
        IngesterHarness s = stack();
        DynamoDbClient dynamoDb = s.ingesterAws.dynamoDbClients().build(DynamoDbClient.builder(),
                o -> o.retryStrategy(RetryMode.STANDARD));
        IngesterHandler handler = s.handler(s.config(), dynamoDb);
        s.put("f.log", metadata("f", START, null));
        List<Message> batch = s.receive(1);
        AWS.dynalite().stop();
        Set<String> retried;
        try {
            // when the batch is handled
            retried = s.handle(handler, batch);
        } finally {
            AWS.dynalite().start();
        }

        // then the message comes back, and no report claims anything
        assertEquals(Set.of(batch.get(0).messageId()), retried);
        s.assertEmpty(s.reportQueueUrl);

        // when DynamoDB is back (empty: dynalite keeps tables in memory) and SQS redelivers
        DatalakeStack.builder(AWS).prefix(s.stack.prefix()).tablesOnly().build();
        s.expireVisibility(batch);
        assertEquals(Set.of(), s.handle(handler, s.receive(1)));

        // then the file is indexed and reported once
        assertEquals(List.of("f"), s.records().stream().map(r -> r.metadata().id()).toList());
        List<ReceivedReport> reports = s.reports(1);
        assertEquals(StatusReport.Status.SUCCESS, reports.get(0).report().status());
        dynamoDb.close();
    }
}
