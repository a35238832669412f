package datalake.emulators;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import java.net.Socket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * API Gateway's HTTP API payload format 2.0 on the local API: a request as it hands it to a function, and
 * a function's response (or API Gateway's own) as it writes it back.
 */
final class HttpApiEvents {
    private static final DateTimeFormatter REQUEST_TIME =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT);

    private HttpApiEvents() {
    }

    static APIGatewayV2HTTPEvent toEvent(HttpWire.WireRequest request, Socket client) {
        String method = request.method().toUpperCase(Locale.ROOT);
        Map<String, String> headers = new LinkedHashMap<>();
        request.headers().forEach((name, values) ->
                headers.merge(name.toLowerCase(Locale.ROOT), String.join(",", values), (a, b) -> a + "," + b));
        // API Gateway adds these; this server speaks plain HTTP, which is what links must then say.
        String sourceIp = client.getInetAddress().getHostAddress();
        headers.putIfAbsent("x-forwarded-proto", "http");
        headers.putIfAbsent("x-forwarded-port", Integer.toString(client.getLocalPort()));
        headers.putIfAbsent("x-forwarded-for", sourceIp);
        String rawQuery = request.rawQuery();
        String host = headers.getOrDefault("host", "127.0.0.1");
        int colon = host.lastIndexOf(':');
        String domainName = colon > 0 && !host.endsWith("]") ? host.substring(0, colon) : host;
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        APIGatewayV2HTTPEvent.RequestContext context = APIGatewayV2HTTPEvent.RequestContext.builder()
                .withRouteKey("$default")
                .withStage("$default")
                .withRequestId(UUID.randomUUID().toString())
                .withDomainName(domainName)
                .withDomainPrefix(domainName.contains(".") ? domainName.substring(0, domainName.indexOf('.')) : domainName)
                .withTime(REQUEST_TIME.format(now))
                .withTimeEpoch(now.toInstant().toEpochMilli())
                .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder()
                        .withMethod(method)
                        .withPath(request.rawPath())
                        .withProtocol(request.protocol())
                        .withSourceIp(sourceIp)
                        .withUserAgent(headers.get("user-agent"))
                        .build())
                .build();
        byte[] body = request.body();
        return APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0")
                .withRouteKey("$default")
                .withRawPath(request.rawPath())
                .withRawQueryString(rawQuery)
                .withHeaders(headers)
                .withQueryStringParameters(rawQuery.isEmpty() ? null : queryParameters(rawQuery))
                .withRequestContext(context)
                .withBody(body.length == 0 ? null : Base64.getEncoder().encodeToString(body))
                .withIsBase64Encoded(body.length > 0)
                .build();
    }

    /** As API Gateway does: decoded, repeated names joined with commas. */
    static Map<String, String> queryParameters(String rawQuery) {
        Map<String, String> params = new LinkedHashMap<>();
        QueryStrings.forEachPair(rawQuery, HttpApiEvents::lenientDecode,
                (name, value) -> params.merge(name, value, (a, b) -> a + "," + b));
        return params;
    }

    private static String lenientDecode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return s;
        }
    }

    /** A response with API Gateway's own JSON body, as it answers what it refuses itself. */
    static APIGatewayV2HTTPResponse json(int status, String body) {
        return APIGatewayV2HTTPResponse.builder().withStatusCode(status)
                .withHeaders(new LinkedHashMap<>(Map.of("content-type", "application/json")))
                .withBody(body).build();
    }

    /** A static file's response: never cached (the page changes with the code), never sniffed, nothing from elsewhere. */
    static APIGatewayV2HTTPResponse page(StaticFile file) {
        return APIGatewayV2HTTPResponse.builder().withStatusCode(200)
                .withHeaders(Map.of("content-type", file.contentType(), "cache-control", "no-cache",
                        "x-content-type-options", "nosniff",
                        "content-security-policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"))
                .withBody(Base64.getEncoder().encodeToString(file.body()))
                .withIsBase64Encoded(true).build();
    }

    /** The response's headers, multi-value headers and cookies, in that order, as the wire carries them. */
    static List<Map.Entry<String, String>> headers(APIGatewayV2HTTPResponse response) {
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        if (response.getHeaders() != null) {
            response.getHeaders().forEach((name, value) -> headers.add(Map.entry(name, value)));
        }
        if (response.getMultiValueHeaders() != null) {
            response.getMultiValueHeaders().forEach((name, values) -> values.forEach(v -> headers.add(Map.entry(name, v))));
        }
        if (response.getCookies() != null) {
            response.getCookies().forEach(cookie -> headers.add(Map.entry("set-cookie", cookie)));
        }
        return headers;
    }

    static byte[] body(APIGatewayV2HTTPResponse response) {
        String text = response.getBody();
        if (text == null) {
            return new byte[0];
        }
        return response.getIsBase64Encoded() ? Base64.getDecoder().decode(text) : text.getBytes(StandardCharsets.UTF_8);
    }
}
