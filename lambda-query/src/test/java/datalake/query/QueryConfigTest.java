package datalake.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class QueryConfigTest {

    @Test
    void readsTheDesignsVariables() {
        QueryConfig config = QueryConfig.fromEnvironment(Map.of(
                "DATALAKE_DYNAMODB_TABLE", "records",
                "DATALAKE_LATEST_TABLE", "latest",
                "DATALAKE_STORAGE_URL", "s3://lake/",
                "AWS_REGION", "eu-west-1",
                "AWS_ENDPOINT_URL", "http://127.0.0.1:5000",
                "AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:8000",
                "DATALAKE_S3_PATH_STYLE", "true",
                "DATALAKE_HTTP_URL", "https://datalake.example.com/",
                "AWS_LAMBDA_FUNCTION_NAME", "datalake-query"));

        assertEquals(new QueryConfig("records", "latest", "lake", "eu-west-1", true, "https://datalake.example.com",
                "datalake-query"), config);
        assertEquals("s3://lake", config.storageUrl());
    }

    @Test
    void optionalVariablesMayBeAbsent() {
        QueryConfig config = QueryConfig.fromEnvironment(Map.of("DATALAKE_DYNAMODB_TABLE", "records",
                "DATALAKE_STORAGE_URL", "s3://lake", "DATALAKE_LATEST_TABLE", "", "AWS_REGION", "us-east-1"));

        assertNull(config.latestTable());
        assertEquals(false, config.s3PathStyle());
        assertNull(config.httpUrl());
        assertEquals("lambda-query", config.functionName());
    }

    @Test
    void mistakesAreNamedInOneSentence() {
        assertMessage("DATALAKE_DYNAMODB_TABLE", Map.of("DATALAKE_STORAGE_URL", "s3://lake", "AWS_REGION", "r"));
        assertMessage("DATALAKE_STORAGE_URL", Map.of("DATALAKE_DYNAMODB_TABLE", "t", "AWS_REGION", "r"));
        assertMessage("DATALAKE_STORAGE_URL", Map.of("DATALAKE_DYNAMODB_TABLE", "t", "DATALAKE_STORAGE_URL", "lake"));
        assertMessage("DATALAKE_STORAGE_URL", Map.of("DATALAKE_DYNAMODB_TABLE", "t", "DATALAKE_STORAGE_URL", "s3://lake/x"));
        assertMessage("DATALAKE_S3_PATH_STYLE", Map.of("DATALAKE_DYNAMODB_TABLE", "t", "DATALAKE_STORAGE_URL", "s3://lake",
                "AWS_REGION", "r", "DATALAKE_S3_PATH_STYLE", "maybe"));
        assertMessage("AWS_REGION", Map.of("DATALAKE_DYNAMODB_TABLE", "t", "DATALAKE_STORAGE_URL", "s3://lake"));
    }

    @Test
    void theHttpUrlIsAnAbsoluteHttpUrlThatPathsCanFollow() {
        for (String bad : new String[] {"datalake.example.com/lake", "/lake", "ftp://datalake.example.com",
                "https://", "https:///lake", "https://datalake.example.com/lake?stage=prod",
                "https://datalake.example.com/lake#top", "https://datalake.example.com/?", "https://exa mple.com"}) {
            assertMessage("DATALAKE_HTTP_URL", Map.of("DATALAKE_DYNAMODB_TABLE", "t", "DATALAKE_STORAGE_URL", "s3://lake",
                    "AWS_REGION", "r", "DATALAKE_HTTP_URL", bad));
        }
        for (String good : new String[] {"http://127.0.0.1:8080", "HTTPS://datalake.example.com/lake//"}) {
            QueryConfig config = QueryConfig.fromEnvironment(Map.of("DATALAKE_DYNAMODB_TABLE", "t",
                    "DATALAKE_STORAGE_URL", "s3://lake", "AWS_REGION", "r", "DATALAKE_HTTP_URL", good));
            assertEquals(good.replaceAll("/+$", ""), config.httpUrl());
        }
    }

    private static void assertMessage(String variable, Map<String, String> env) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> QueryConfig.fromEnvironment(env));
        assertTrue(e.getMessage().startsWith(variable) && e.getMessage().endsWith("."), e.getMessage());
    }
}
