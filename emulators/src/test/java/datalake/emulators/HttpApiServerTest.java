package datalake.emulators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class HttpApiServerTest {
    private final HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @Test
    void aRequestBecomesAnHttpApiEventAndTheResponseIsWrittenBack() throws Exception {
        // given a handler that remembers its event and answers with a header and a body
        AtomicReference<APIGatewayV2HTTPEvent> seen = new AtomicReference<>();
        RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler = (event, context) -> {
            seen.set(event);
            context.getLogger().log("");
            return APIGatewayV2HTTPResponse.builder().withStatusCode(201)
                    .withHeaders(Map.of("content-type", "application/json", "x-answer", "42"))
                    .withBody("{\"ok\":true}").build();
        };

        try (HttpApiServer server = HttpApiServer.start(handler, 0)) {
            // when a client calls it
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                    URI.create(server.url() + "/v0/archive/files/?what=a%20b&what=c&x")).header("X-Test", "1").build(),
                    HttpResponse.BodyHandlers.ofString());

            // then the handler saw what API Gateway would send, and the client what the handler answered
            assertEquals(201, response.statusCode());
            assertEquals("{\"ok\":true}", response.body());
            assertEquals("42", response.headers().firstValue("x-answer").orElseThrow());
            APIGatewayV2HTTPEvent event = seen.get();
            assertEquals("2.0", event.getVersion());
            assertEquals("/v0/archive/files/", event.getRawPath());
            assertEquals("what=a%20b&what=c&x", event.getRawQueryString());
            assertEquals(Map.of("what", "a b,c", "x", ""), event.getQueryStringParameters());
            assertEquals("GET", event.getRequestContext().getHttp().getMethod());
            assertEquals("$default", event.getRequestContext().getStage());
            assertEquals("1", event.getHeaders().get("x-test"));
            assertEquals("127.0.0.1:" + server.port(), event.getHeaders().get("host"));
            assertEquals("http", event.getHeaders().get("x-forwarded-proto"), "links must say http");
        }
    }

    @Test
    void redirectsAndHandlerFailuresAreWrittenAsApiGatewayWould() throws Exception {
        RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler = (event, context) -> {
            if (event.getRawPath().equals("/fail")) {
                throw new IllegalStateException("boom");
            }
            return APIGatewayV2HTTPResponse.builder().withStatusCode(302)
                    .withHeaders(Map.of("location", "http://example.com/x")).withBody("").build();
        };
        java.io.PrintStream stderr = System.err;
        System.setErr(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
        try (HttpApiServer server = HttpApiServer.start(handler, 0)) {
            HttpResponse<String> redirect = client.send(HttpRequest.newBuilder(URI.create(server.url() + "/r")).build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> failure = client.send(HttpRequest.newBuilder(URI.create(server.url() + "/fail")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertEquals(302, redirect.statusCode());
            assertEquals("http://example.com/x", redirect.headers().firstValue("location").orElseThrow());
            assertEquals(500, failure.statusCode());
            assertTrue(failure.body().contains("Internal Server Error"));
        } finally {
            System.setErr(stderr);
        }
    }
}
