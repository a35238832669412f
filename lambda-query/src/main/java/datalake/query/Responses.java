package datalake.query;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/** HTTP API (payload 2.0) responses: JSON bodies and redirects. */
final class Responses {
    private Responses() {
    }

    static APIGatewayV2HTTPResponse json(int status, String body) {
        return json(status, body, Map.of());
    }

    static APIGatewayV2HTTPResponse json(int status, String body, Map<String, String> extraHeaders) {
        Map<String, String> headers = new HashMap<>(extraHeaders);
        headers.put("content-type", "application/json");
        return APIGatewayV2HTTPResponse.builder()
                .withStatusCode(status)
                .withHeaders(headers)
                .withBody(body)
                .withIsBase64Encoded(false)
                .build();
    }

    /** 302 to a presigned link; never cached, since the link expires. */
    static APIGatewayV2HTTPResponse redirect(URI location) {
        Map<String, String> headers = new HashMap<>();
        headers.put("location", location.toString());
        headers.put("cache-control", "no-store");
        return APIGatewayV2HTTPResponse.builder()
                .withStatusCode(302)
                .withHeaders(headers)
                .withBody("")
                .withIsBase64Encoded(false)
                .build();
    }
}
