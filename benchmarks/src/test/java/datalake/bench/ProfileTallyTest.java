package datalake.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProfileTallyTest {
    private static final String HANDLER = "datalake.ingester.IngesterHandler.handleRequest";

    @Test
    void aHandlerSampleCountsUnderTheOutermostSdkOperationItIsIn() {
        ProfileTally tally = new ProfileTally();
        tally.sample("ingester-3", List.of(
                "java.util.HashMap.getNode",
                "software.amazon.awssdk.core.internal.http.pipeline.stages.SigningStage.execute",
                "software.amazon.awssdk.services.s3.DefaultS3Client.headObject",
                "datalake.ingester.S3ObjectStore.head"));
        tally.sample("bench-poller-0", List.of(
                "software.amazon.awssdk.protocols.json.internal.marshall.JsonProtocolMarshaller.marshall",
                "software.amazon.awssdk.services.dynamodb.DefaultDynamoDbClient.updateItem",
                "datalake.ingester.DynamoObjectIndex.commit",
                HANDLER,
                "datalake.emulators.SqsLambdaPoller.run"));

        assertEquals(Map.of("S3 headObject", 1L, "DynamoDb updateItem", 1L), tally.samples());
        assertEquals(1.0, tally.sdkShare());
    }

    @Test
    void outsideTheSdkASampleCountsUnderWhoseCodeRuns() {
        ProfileTally tally = new ProfileTally();
        tally.sample("ingester-1", List.of("datalake.records.MetadataParser.parse", HANDLER));
        tally.sample("ingester-1", List.of("com.fasterxml.jackson.core.json.ReaderBasedJsonParser.nextToken",
                "datalake.ingester.NotificationParser.parse"));
        tally.sample("ingester-1", List.of("java.lang.String.indexOf", "datalake.records.Keys.of"));
        tally.sample("ingester-1", List.of("software.amazon.awssdk.services.s3.DefaultS3Client.headObject"));

        assertEquals(Map.of(ProfileTally.OUTSIDE + "ours", 1L, ProfileTally.OUTSIDE + "Jackson", 1L,
                ProfileTally.OUTSIDE + "JDK", 1L, "S3 headObject", 1L), tally.samples());
        assertEquals(0.25, tally.sdkShare());
    }

    @Test
    void samplesOfOtherThreadsAreNotTheHandlers() {
        ProfileTally tally = new ProfileTally();
        tally.sample("bench-poller-0", List.of("software.amazon.awssdk.services.sqs.DefaultSqsClient.receiveMessage",
                "datalake.emulators.SqsLambdaPoller.run"));
        tally.sample("pool-1-thread-2", List.of("software.amazon.awssdk.services.s3.DefaultS3Client.putObject"));
        tally.sample("main", List.of("datalake.bench.IngestBenchmark.main"));

        assertEquals(0, tally.handlerSamples());
        assertEquals(Map.of(), tally.samples());
    }

    @Test
    void compilationsCountByCompilerAndWhoseCode() {
        ProfileTally tally = new ProfileTally();
        tally.compilation("software.amazon.awssdk.core.internal.http.AmazonSyncHttpClient", 4, 30_000_000);
        tally.compilation("software.amazon.awssdk.utils.StringUtils", 4, 10_000_000);
        tally.compilation("java.util.HashMap", 3, 1_000_000);
        tally.compilation("datalake.records.Keys", 1, 500_000);

        assertEquals(Map.of("C2, AWS SDK", 40_000_000L, "C1, JDK", 1_000_000L, "C1, ours", 500_000L), tally.compiledNanos());
        String report = tally.report();
        assertTrue(report.contains("4 methods, 0.0 s of compiler time"), report);
        assertTrue(report.contains("  96.4%  C2, AWS SDK"), report);
    }
}
