package datalake.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ApiRequestTest {

    @Test
    void queryParametersAreDecodedAndTheFirstOfARepeatedNameWins() {
        Map<String, String> params = ApiRequest.parseQuery("what=a%20b&where=x+y&what=second&flag&e=&u=%E2%82%AC");

        assertEquals(Map.of("what", "a b", "where", "x y", "flag", "", "e", "", "u", "€"), params);
    }

    @Test
    void malformedEscapesStayAsTheyWere() {
        assertEquals("%ZZ%", ApiRequest.decode("%ZZ%", true));
        assertEquals("\uFFFD", ApiRequest.decode("%E2", true), "a lone UTF-8 lead byte is a replacement character");
        assertEquals("a%", ApiRequest.decode("a%", false));
        assertEquals("a+b", ApiRequest.decode("a+b", false));
    }

    @Test
    void theBaseUrlComesFromHostAndForwardedProtoWithTheStage() {
        APIGatewayV2HTTPEvent event = Events.request("GET", "/prod/v0/archive/", "", "prod");
        event.setHeaders(Map.of("Host", "api.example.com:8443", "X-Forwarded-Proto", "http"));

        ApiRequest request = ApiRequest.from(event, null);

        assertEquals("/v0/archive/", request.path());
        assertEquals("http://api.example.com:8443/prod", request.baseUrl());
    }

    @Test
    void aConfiguredUrlWinsAndAForgedHostIsNotUsed() {
        APIGatewayV2HTTPEvent event = Events.get("/v0/archive/", "");
        event.setHeaders(Map.of("host", "evil.example/path?x="));

        assertEquals("https://localhost", ApiRequest.from(event, null).baseUrl());
        assertEquals("https://configured", ApiRequest.from(event, "https://configured").baseUrl());
    }

    @Test
    void withoutARawQueryTheDecodedParametersAreUsed() {
        APIGatewayV2HTTPEvent event = Events.get("/v0/archive/files/", null);
        event.setQueryStringParameters(Map.of("what", "syslog"));

        assertEquals(Map.of("what", "syslog"), ApiRequest.from(event, null).query());
    }
}
