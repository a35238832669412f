package datalake.query;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What the API needs of an HTTP API (payload 2.0) event: the method, the path below the stage, the
 * query parameters (first value of each, decoded) and the base URL that {@code next} and
 * {@code http_url} links start with.
 *
 * @param baseUrl scheme, host and stage prefix, without a trailing slash, e.g. {@code https://api.example.com}
 */
record ApiRequest(String method, String path, Map<String, String> query, String baseUrl) {

    static ApiRequest from(APIGatewayV2HTTPEvent event, String configuredBaseUrl) {
        APIGatewayV2HTTPEvent.RequestContext context = event.getRequestContext();
        String method = context != null && context.getHttp() != null && context.getHttp().getMethod() != null
                ? context.getHttp().getMethod().toUpperCase(Locale.ROOT) : "GET";
        String rawPath = event.getRawPath() != null ? event.getRawPath()
                : context != null && context.getHttp() != null && context.getHttp().getPath() != null
                ? context.getHttp().getPath() : "/";
        // A named stage (not $default) appears as the first path segment; links must keep it.
        String stagePrefix = "";
        String stage = context != null ? context.getStage() : null;
        if (stage != null && !stage.isEmpty() && !stage.equals("$default")
                && (rawPath.equals("/" + stage) || rawPath.startsWith("/" + stage + "/"))) {
            stagePrefix = "/" + stage;
            rawPath = rawPath.substring(stagePrefix.length());
            if (rawPath.isEmpty()) {
                rawPath = "/";
            }
        }
        Map<String, String> query = event.getRawQueryString() != null
                ? parseQuery(event.getRawQueryString())
                : event.getQueryStringParameters() != null ? event.getQueryStringParameters() : Map.of();
        String baseUrl = configuredBaseUrl != null ? configuredBaseUrl
                : scheme(event) + "://" + host(event) + stagePrefix;
        return new ApiRequest(method, rawPath, Collections.unmodifiableMap(query), baseUrl);
    }

    /** {@code a=1&b=x%20y&a=2} → {a=1, b="x y"}: the first value wins, as in the v0 API. */
    static Map<String, String> parseQuery(String raw) {
        Map<String, String> params = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return params;
        }
        for (String pair : raw.split("&", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq), true);
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1), true);
            params.putIfAbsent(name, value);
        }
        return params;
    }

    /**
     * Percent-decoding that never fails: a malformed escape stays as it was, so that bad input reaches
     * the parameter's own validation (and its error code) instead of an exception.
     */
    static String decode(String s, boolean plusIsSpace) {
        if (s.indexOf('%') < 0 && (!plusIsSpace || s.indexOf('+') < 0)) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length()
                    && hex(s.charAt(i + 1)) >= 0 && hex(s.charAt(i + 2)) >= 0) {
                bytes.write(hex(s.charAt(i + 1)) * 16 + hex(s.charAt(i + 2)));
                i += 2;
            } else if (c == '+' && plusIsSpace) {
                bytes.write(' ');
            } else {
                byte[] encoded = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
                    encoded = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                bytes.writeBytes(encoded);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static int hex(char c) {
        return Character.digit(c, 16);
    }

    private static String scheme(APIGatewayV2HTTPEvent event) {
        String proto = header(event, "x-forwarded-proto");
        if (proto == null) {
            return "https";
        }
        int comma = proto.indexOf(',');
        proto = (comma >= 0 ? proto.substring(0, comma) : proto).strip().toLowerCase(Locale.ROOT);
        return proto.equals("http") ? "http" : "https";
    }

    private static String host(APIGatewayV2HTTPEvent event) {
        String host = header(event, "host");
        if (host == null && event.getRequestContext() != null) {
            host = event.getRequestContext().getDomainName();
        }
        // Only what a host[:port] can hold: a forged Host header must not inject a path or query into links.
        if (host == null || host.isBlank() || !host.strip().matches("[A-Za-z0-9.\\-]+(:[0-9]{1,5})?|\\[[0-9A-Fa-f:.]+\\](:[0-9]{1,5})?")) {
            return "localhost";
        }
        return host.strip();
    }

    private static String header(APIGatewayV2HTTPEvent event, String name) {
        Map<String, String> headers = event.getHeaders();
        if (headers == null) {
            return null;
        }
        String value = headers.get(name);
        if (value != null) {
            return value;
        }
        for (Map.Entry<String, String> e : headers.entrySet()) {
            if (e.getKey() != null && e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        return null;
    }
}
