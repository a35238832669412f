package datalake.emulators;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import java.net.Socket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/** A request as API Gateway's HTTP API hands it to a function (payload format 2.0). */
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
}
