package datalake.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.lambda.ConfigurationException;
import datalake.lambda.Environment;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The one sentence a tool prints when AWS does not answer or refuses, wherever the SDK's exception is wrapped;
 * and the settings records are made with and the latest table, which the tools take from no default.
 */
class ToolsTest {
    private static final Environment LOCAL = Environment.of(Map.of("AWS_REGION", "us-east-1",
            "AWS_ENDPOINT_URL_S3", "http://127.0.0.1:5310", "AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:8000"));

    @Test
    void noAnswerNamesTheReasonAndTheEndpoints() {
        var failure = new CompletionException(SdkClientException.create("Unable to execute HTTP request: Connection refused"));

        assertEquals(Optional.of("backfill: AWS did not answer (Unable to execute HTTP request: Connection refused) at"
                + " AWS_ENDPOINT_URL_DYNAMODB=http://127.0.0.1:8000, AWS_ENDPOINT_URL_S3=http://127.0.0.1:5310;"
                + " check the endpoints, AWS_REGION and the credentials."), Tools.unanswered("backfill", failure, LOCAL));
    }

    @Test
    void withoutEndpointsItIsAwsItselfInTheRegion() {
        assertEquals(Optional.of("reconcile: AWS did not answer (timed out) at AWS's own endpoints in eu-west-1;"
                + " check the endpoints, AWS_REGION and the credentials."), Tools.unanswered("reconcile",
                SdkClientException.create("timed out"), Environment.of(Map.of("AWS_REGION", "eu-west-1"))));
    }

    @Test
    void aRefusalNamesTheServiceAndItsCode() {
        var refused = S3Exception.builder().statusCode(403).awsErrorDetails(AwsErrorDetails.builder().serviceName("S3")
                .errorCode("AccessDenied").errorMessage("Access Denied").build()).build();

        assertEquals(Optional.of("backfill: S3 refused a call (AccessDenied: Access Denied); check the bucket, the"
                + " tables, AWS_REGION and the credentials' permissions."), Tools.unanswered("backfill", refused, LOCAL));
    }

    @Test
    void anythingElseIsNotTheToolsToExplain() {
        assertEquals(Optional.empty(), Tools.unanswered("backfill", new IllegalStateException("a bug"), LOCAL));
    }

    @Test
    void theSettingsRecordsAreMadeWithMustBeTheStacksNotADefault() {
        Map<String, String> both = Map.of("DATALAKE_MAX_BUCKET_SPAN", "60", "DATALAKE_RETENTION_DAYS", "0");
        Tools.requireRecordSettings(Environment.of(both));

        ConfigurationException noSpan = assertThrows(ConfigurationException.class,
                () -> Tools.requireRecordSettings(Environment.of(Map.of("DATALAKE_RETENTION_DAYS", "90"))));
        assertEquals("DATALAKE_MAX_BUCKET_SPAN is not set; set it to the stack's MaxBucketSpan (30 unless it was"
                + " changed), as the functions have it.", noSpan.getMessage());
        ConfigurationException noRetention = assertThrows(ConfigurationException.class,
                () -> Tools.requireRecordSettings(Environment.of(Map.of("DATALAKE_MAX_BUCKET_SPAN", " "))));
        assertTrue(noRetention.getMessage().startsWith("DATALAKE_MAX_BUCKET_SPAN is not set"), "blank is unset");
        noRetention = assertThrows(ConfigurationException.class,
                () -> Tools.requireRecordSettings(Environment.of(Map.of("DATALAKE_MAX_BUCKET_SPAN", "30"))));
        assertEquals("DATALAKE_RETENTION_DAYS is not set; set it to the stack's RetentionDays (0 for none), as the"
                + " functions have it.", noRetention.getMessage());
    }

    @Test
    void theLatestTableMustBeSetAsEveryStackHasOne() {
        Tools.requireLatestTable(Environment.of(Map.of("DATALAKE_LATEST_TABLE", "datalake-latest")));

        ConfigurationException none = assertThrows(ConfigurationException.class,
                () -> Tools.requireLatestTable(Environment.of(Map.of("DATALAKE_DYNAMODB_TABLE", "datalake-records"))));
        assertEquals("DATALAKE_LATEST_TABLE is not set; set it to the stack's latest table (the output"
                + " LatestTableName), as the functions have it.", none.getMessage());
    }
}
