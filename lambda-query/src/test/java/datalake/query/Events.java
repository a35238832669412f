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
}
