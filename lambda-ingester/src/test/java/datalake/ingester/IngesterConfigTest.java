package datalake.ingester;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.lambda.ConfigurationException;
import datalake.lambda.Environment;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IngesterConfigTest {
    private static final String DLQ = "https://sqs.us-east-1.amazonaws.com/123456789012/datalake-ingest-dlq";

    private static Map<String, String> minimal() {
        Map<String, String> env = new HashMap<>();
        env.put("DATALAKE_DYNAMODB_TABLE", "datalake-records");
        env.put("DATALAKE_DLQ_URL", DLQ);
        env.put("AWS_REGION", "us-east-1");
        return env;
    }

    @Test
    void theMinimalConfigurationHasTheDefaults() {
        IngesterConfig config = IngesterConfig.fromEnvironment(minimal());

        assertEquals("datalake-records", config.recordsTable());
        assertEquals(DLQ, config.deadLetterUrl());
        assertNull(config.latestTable());
        assertNull(config.reportTopicArn());
        assertNull(config.storageUrl());
        assertEquals(30, config.maxBucketSpan());
        assertNull(config.retentionDays());
        assertFalse(config.s3PathStyle());
        assertEquals("lambda-ingester", config.functionName());
    }

    @Test
    void everySettingIsRead() {
        Map<String, String> env = minimal();
        env.put("DATALAKE_LATEST_TABLE", "datalake-latest");
        env.put("DATALAKE_REPORT_TOPIC_ARN", "arn:aws:sns:us-east-1:123456789012:datalake-reports");
        env.put("DATALAKE_STORAGE_URL", "s3://datalake-local");
        env.put("DATALAKE_MAX_BUCKET_SPAN", "90");
        env.put("DATALAKE_RETENTION_DAYS", "365");
        env.put("AWS_LAMBDA_FUNCTION_NAME", "datalake-ingester");

        IngesterConfig config = IngesterConfig.fromEnvironment(env);

        assertEquals("datalake-latest", config.latestTable());
        assertEquals("arn:aws:sns:us-east-1:123456789012:datalake-reports", config.reportTopicArn());
        assertEquals("s3://datalake-local", config.storageUrl());
        assertEquals(90, config.maxBucketSpan());
        assertEquals(365, config.retentionDays());
        assertEquals("datalake-ingester", config.functionName());
    }

    @Test
    void blankOptionalSettingsAreUnset() {
        Map<String, String> env = minimal();
        env.put("DATALAKE_LATEST_TABLE", " ");
        env.put("DATALAKE_RETENTION_DAYS", "0");

        IngesterConfig config = IngesterConfig.fromEnvironment(env);

        assertNull(config.latestTable());
        assertNull(config.retentionDays());
    }

    @ParameterizedTest
    @CsvSource(value = {
        // the trigger's batch size, and the objects of a batch followed at once: all of them, 8 to 64
        "null, 8",
        "1, 8",
        "10, 10",
        "64, 64",
        "10000, 64",
    }, nullValues = "null")
    void theObjectsFollowedAtOnceAreTheTriggersBatchSizeWithinBounds(String batchSize, int concurrency) {
        Map<String, String> env = minimal();
        if (batchSize != null) {
            env.put("DATALAKE_INGEST_BATCH_SIZE", batchSize);
        }

        assertEquals(concurrency, IngesterConfig.fromEnvironment(env).concurrency());
        assertEquals(Ingester.DEFAULT_CONCURRENCY, IngesterConfig.forBackfill(Environment.of(env)).concurrency(),
                "the backfill is given no batch size");
    }

    @ParameterizedTest
    @CsvSource(value = {
        "AWS_ENDPOINT_URL, http://127.0.0.1:5000, null, true",
        "AWS_ENDPOINT_URL_S3, http://127.0.0.1:5000, null, true",
        "AWS_ENDPOINT_URL_DYNAMODB, http://127.0.0.1:8000, null, false",
        "AWS_ENDPOINT_URL_S3, http://127.0.0.1:5000, false, false",
        "UNRELATED, x, true, true",
        "UNRELATED, x, TRUE, true",
    }, nullValues = "null")
    void pathStyleFollowsAnS3EndpointOverrideUnlessSetExplicitly(String name, String value, String explicit, boolean pathStyle) {
        Map<String, String> env = minimal();
        env.put(name, value);
        if (explicit != null) {
            env.put("DATALAKE_S3_PATH_STYLE", explicit);
        }

        assertEquals(pathStyle, IngesterConfig.fromEnvironment(env).s3PathStyle());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "DATALAKE_DYNAMODB_TABLE||DATALAKE_DYNAMODB_TABLE is not set",
        "DATALAKE_DLQ_URL||DATALAKE_DLQ_URL is not set",
        "DATALAKE_DLQ_URL|datalake-ingest-dlq|DATALAKE_DLQ_URL must be an SQS queue URL",
        "AWS_REGION||AWS_REGION is not set",
        "DATALAKE_MAX_BUCKET_SPAN|thirty|DATALAKE_MAX_BUCKET_SPAN must be a whole number of at least 1, not \"thirty\".",
        "DATALAKE_MAX_BUCKET_SPAN|0|DATALAKE_MAX_BUCKET_SPAN must be a whole number of at least 1",
        "DATALAKE_RETENTION_DAYS|-3|DATALAKE_RETENTION_DAYS must be a whole number of at least 1",
        "DATALAKE_REPORT_TOPIC_ARN|datalake-reports|DATALAKE_REPORT_TOPIC_ARN must be an SNS topic ARN",
        "DATALAKE_STORAGE_URL|https://example.com|DATALAKE_STORAGE_URL must be s3://<bucket>",
        "DATALAKE_S3_PATH_STYLE|yes|DATALAKE_S3_PATH_STYLE must be true or false",
        "DATALAKE_INGEST_BATCH_SIZE|0|DATALAKE_INGEST_BATCH_SIZE must be a whole number of at least 1",
    })
    void aBadSettingFailsWithOneSentenceNamingTheVariable(String name, String value, String message) {
        Map<String, String> env = minimal();
        if (value == null) {
            env.remove(name);
        } else {
            env.put(name, value);
        }

        ConfigurationException e = assertThrows(ConfigurationException.class, () -> IngesterConfig.fromEnvironment(env));

        assertTrue(e.getMessage().startsWith(message), e.getMessage());
        assertTrue(e.getMessage().endsWith("."), e.getMessage());
    }
}
