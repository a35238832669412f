package datalake.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EnvironmentTest {

    @Test
    void blankValuesAreUnsetAndValuesAreStripped() {
        Environment env = Environment.of(Map.of("DATALAKE_LATEST_TABLE", "  ", "DATALAKE_DYNAMODB_TABLE", " records "));

        assertNull(env.get(EnvironmentVariable.LATEST_TABLE));
        assertEquals("records", env.require(EnvironmentVariable.DYNAMODB_TABLE));
    }

    @Test
    void aMissingRequiredVariableIsNamedWithWhatToSetItTo() {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> Environment.of(Map.of()).region());

        assertEquals("AWS_REGION is not set; set it to the AWS region, e.g. us-east-1 (Lambda sets it).", e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(value = {
        // DATALAKE_S3_PATH_STYLE | AWS_ENDPOINT_URL | AWS_ENDPOINT_URL_S3 | AWS_ENDPOINT_URL_DYNAMODB | path style
        "null  | null                  | null                  | null                  | false",
        "null  | http://127.0.0.1:5000 | null                  | null                  | true",
        "null  | null                  | http://127.0.0.1:5000 | null                  | true",
        "null  | null                  | null                  | http://127.0.0.1:8000 | false",
        "false | http://127.0.0.1:5000 | null                  | null                  | false",
        "TRUE  | null                  | null                  | null                  | true",
        "True  | null                  | null                  | null                  | true",
    }, delimiter = '|', nullValues = "null")
    void pathStyleIsExplicitOrFollowsAnS3EndpointOverride(String flag, String any, String s3, String dynamoDb,
            boolean expected) {
        Map<String, String> values = new HashMap<>();
        put(values, "DATALAKE_S3_PATH_STYLE", flag);
        put(values, "AWS_ENDPOINT_URL", any);
        put(values, "AWS_ENDPOINT_URL_S3", s3);
        put(values, "AWS_ENDPOINT_URL_DYNAMODB", dynamoDb);

        assertEquals(expected, Environment.of(values).s3PathStyle());
    }

    @ParameterizedTest
    @CsvSource(value = {
        "DATALAKE_S3_PATH_STYLE|yes|DATALAKE_S3_PATH_STYLE must be true or false, not \"yes\".",
        "DATALAKE_S3_PATH_STYLE|1|DATALAKE_S3_PATH_STYLE must be true or false, not \"1\".",
        "DATALAKE_STORAGE_URL|lake|DATALAKE_STORAGE_URL must be s3://<bucket>, not \"lake\".",
        "DATALAKE_STORAGE_URL|s3://lake/x|DATALAKE_STORAGE_URL must be s3://<bucket>, not \"s3://lake/x\".",
        "DATALAKE_STORAGE_URL|s3://Lake|DATALAKE_STORAGE_URL must be s3://<bucket>, not \"s3://Lake\".",
        "DATALAKE_MAX_BUCKET_SPAN|0|DATALAKE_MAX_BUCKET_SPAN must be a whole number of at least 1, not \"0\".",
        "DATALAKE_RETENTION_DAYS|-3|DATALAKE_RETENTION_DAYS must be a whole number of at least 1, or 0 for none, not \"-3\".",
        "DATALAKE_REPORT_TOPIC_ARN|reports|DATALAKE_REPORT_TOPIC_ARN must be an SNS topic ARN (arn:aws:sns:...), not \"reports\".",
        "DATALAKE_DLQ_URL|dlq|DATALAKE_DLQ_URL must be an SQS queue URL (https://sqs.<region>.amazonaws.com/<account>/<queue>), not \"dlq\".",
    }, delimiter = '|')
    void aBadValueIsOneSentenceNamingTheVariable(String name, String value, String message) {
        Environment env = Environment.of(Map.of(name, value));

        ConfigurationException e = assertThrows(ConfigurationException.class, () -> {
            switch (name) {
                case "DATALAKE_S3_PATH_STYLE" -> env.s3PathStyle();
                case "DATALAKE_STORAGE_URL" -> env.bucket(EnvironmentVariable.STORAGE_URL);
                case "DATALAKE_MAX_BUCKET_SPAN" -> env.positive(EnvironmentVariable.MAX_BUCKET_SPAN, 30);
                case "DATALAKE_RETENTION_DAYS" -> env.positiveOrOff(EnvironmentVariable.RETENTION_DAYS);
                case "DATALAKE_REPORT_TOPIC_ARN" -> env.topicArn(EnvironmentVariable.REPORT_TOPIC_ARN);
                default -> env.queueUrl(EnvironmentVariable.DLQ_URL);
            }
        });

        assertEquals(message, e.getMessage());
    }

    @Test
    void goodValuesAreRead() {
        Environment env = Environment.of(Map.of(
                "DATALAKE_STORAGE_URL", "s3://datalake-local/",
                "DATALAKE_MAX_BUCKET_SPAN", "90",
                "DATALAKE_RETENTION_DAYS", "0",
                "DATALAKE_DLQ_URL", "http://127.0.0.1:5000/000000000000/dlq"));

        assertEquals("datalake-local", env.bucket(EnvironmentVariable.STORAGE_URL));
        assertEquals(90, env.positive(EnvironmentVariable.MAX_BUCKET_SPAN, 30));
        assertEquals(30, Environment.of(Map.of()).positive(EnvironmentVariable.MAX_BUCKET_SPAN, 30), "unset: the fallback");
        assertNull(env.positiveOrOff(EnvironmentVariable.RETENTION_DAYS), "0 means none");
        assertEquals("http://127.0.0.1:5000/000000000000/dlq", env.queueUrl(EnvironmentVariable.DLQ_URL));
    }

    @Test
    void theCatalogueSaysWhoReadsWhat() {
        assertTrue(EnvironmentVariable.readBy(EnvironmentVariable.Reader.INGESTER).contains(EnvironmentVariable.DLQ_URL));
        assertFalse(EnvironmentVariable.readBy(EnvironmentVariable.Reader.QUERY).contains(EnvironmentVariable.DLQ_URL));
        assertTrue(EnvironmentVariable.readBy(EnvironmentVariable.Reader.QUERY).contains(EnvironmentVariable.HTTP_URL));
        assertTrue(EnvironmentVariable.readBy(EnvironmentVariable.Reader.BACKFILL).contains(EnvironmentVariable.MAX_BUCKET_SPAN));
        assertFalse(EnvironmentVariable.readBy(EnvironmentVariable.Reader.BACKFILL).contains(EnvironmentVariable.DLQ_URL));
        assertTrue(EnvironmentVariable.REGION.setByLambda());
        assertFalse(EnvironmentVariable.DYNAMODB_TABLE.setByLambda());
    }

    private static void put(Map<String, String> values, String name, String value) {
        if (value != null) {
            values.put(name, value);
        }
    }
}
