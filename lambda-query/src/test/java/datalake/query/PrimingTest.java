package datalake.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import datalake.lambda.LambdaCredentials;
import datalake.lambda.SnapshotPriming;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.regions.Region;
import org.junit.jupiter.api.Test;

class PrimingTest {
    @Test
    void primingAnswersTheMainRoutesFromSdkClientsThatNeverTouchTheNetwork() {
        // given the deployed configuration, with AWS's real endpoints and no credentials at all
        QueryConfig config = QueryConfig.fromEnvironment(Map.of(
                "DATALAKE_DYNAMODB_TABLE", "records",
                "DATALAKE_STORAGE_URL", "s3://priming",
                "AWS_REGION", "us-east-1"));

        // when the snapshot hook primes
        List<Integer> statuses = new ArrayList<>();
        int calls = SnapshotPriming.prime(QueryPriming.of(config, statuses::add), Region.of(config.region()));

        // then each route answered as for a stored file, and every DynamoDB and S3 call went to the
        // priming client: the shard map, two day buckets, the GSI, three buckets for latest (up to 24 hours
        // ahead), a HEAD for the metadata and a ranged GET for the data
        assertEquals(List.of(200, 200, 200, 200, 302, 400), statuses);
        assertEquals(9, calls);
    }

    @Test
    void credentialsComeFromTheSourceTheEnvironmentNames() {
        assertEquals("EnvironmentVariableCredentialsProvider", LambdaCredentials.of(Map.of(
                "AWS_ACCESS_KEY_ID", "id", "AWS_SECRET_ACCESS_KEY", "secret")).getClass().getSimpleName());
        assertEquals("ContainerCredentialsProvider", LambdaCredentials.of(Map.of(
                "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "/v2/credentials/x")).getClass().getSimpleName());
    }
}
