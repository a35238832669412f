package datalake.ingester;

import static org.junit.jupiter.api.Assertions.assertEquals;

import datalake.lambda.LambdaCredentials;
import datalake.lambda.SnapshotPriming;

import java.util.Map;
import software.amazon.awssdk.regions.Region;
import org.junit.jupiter.api.Test;

class PrimingTest {
    @Test
    void primingRunsABatchThroughTheSdkClientsAnsweredWithoutTheNetwork() {
        // given the deployed configuration, with AWS's real endpoints and no credentials at all
        IngesterConfig config = IngesterConfig.fromEnvironment(Map.of(
                "DATALAKE_DYNAMODB_TABLE", "records",
                "DATALAKE_LATEST_TABLE", "latest",
                "DATALAKE_REPORT_TOPIC_ARN", "arn:aws:sns:us-east-1:000000000000:reports",
                "DATALAKE_DLQ_URL", "https://sqs.us-east-1.amazonaws.com/000000000000/dlq",
                "AWS_REGION", "us-east-1"));

        // when the snapshot hook primes
        int calls = SnapshotPriming.prime(IngesterPriming.of(config), Region.of(config.region()));

        // then every call of a batch went to the priming client: the shard map, the HEAD of the one object, its
        // per-object commit, its records, the latest table, the commit's check (which finds no entry, so
        // that message goes back), and the dead letter and report of the message that is not JSON
        assertEquals(8, calls);
    }

    @Test
    void credentialsComeFromTheSourceTheEnvironmentNames() {
        assertEquals("EnvironmentVariableCredentialsProvider", LambdaCredentials.of(Map.of(
                "AWS_ACCESS_KEY_ID", "id", "AWS_SECRET_ACCESS_KEY", "secret")).getClass().getSimpleName());
        assertEquals("ContainerCredentialsProvider", LambdaCredentials.of(Map.of(
                "AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://127.0.0.1:9001/2021-04-23/credentials"))
                .getClass().getSimpleName());
        assertEquals("DefaultCredentialsProvider", LambdaCredentials.of(Map.of()).getClass().getSimpleName());
    }
}
