package datalake.query;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/** HTTP API (payload 2.0) events as API Gateway sends them, and reading responses. */
final class Events {
    static final ObjectMapper JSON = new ObjectMapper();

    private Events() {
    }

    static APIGatewayV2HTTPEvent get(String rawPath, String rawQuery) {
        return request("GET", rawPath, rawQuery, "$default");
    }

    static APIGatewayV2HTTPEvent request(String method, String rawPath, String rawQuery, String stage) {
        return APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0")
                .withRouteKey("$default")
                .withRawPath(rawPath)
                .withRawQueryString(rawQuery)
                .withHeaders(Map.of("host", "abc123.execute-api.us-east-1.amazonaws.com",
                        "x-forwarded-proto", "https"))
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withStage(stage)
                        .withDomainName("abc123.execute-api.us-east-1.amazonaws.com")
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder()
                                .withMethod(method).withPath(rawPath).build())
                        .build())
                .build();
    }

    static JsonNode body(APIGatewayV2HTTPResponse response) {
        try {
            return JSON.readTree(response.getBody());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A Lambda context whose logger discards, so that tests do not print a line a request. */
    static final com.amazonaws.services.lambda.runtime.Context QUIET = new com.amazonaws.services.lambda.runtime.Context() {
        @Override
        public String getAwsRequestId() {
            return "test";
        }

        @Override
        public String getLogGroupName() {
            return "test";
        }

        @Override
        public String getLogStreamName() {
            return "test";
        }

        @Override
        public String getFunctionName() {
            return "test";
        }

        @Override
        public String getFunctionVersion() {
            return "test";
        }

        @Override
        public String getInvokedFunctionArn() {
            return "test";
        }

        @Override
        public com.amazonaws.services.lambda.runtime.CognitoIdentity getIdentity() {
            return null;
        }

        @Override
        public com.amazonaws.services.lambda.runtime.ClientContext getClientContext() {
            return null;
        }

        @Override
        public int getRemainingTimeInMillis() {
            return 30_000;
        }

        @Override
        public int getMemoryLimitInMB() {
            return 1024;
        }

        @Override
        public com.amazonaws.services.lambda.runtime.LambdaLogger getLogger() {
            return new com.amazonaws.services.lambda.runtime.LambdaLogger() {
                @Override
                public void log(String message) {
                }

                @Override
                public void log(byte[] message) {
                }
            };
        }
    };
}
