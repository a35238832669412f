package datalake.emulators;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Serves an API Gateway HTTP API handler (payload format 2.0) over plain HTTP with the JDK's
 * {@link HttpServer}: each request becomes an {@link APIGatewayV2HTTPEvent} as API Gateway would
 * send it ({@code $default} stage and route), and the handler's response is written back. For local
 * runs and tests; no TLS, no throttling. Optionally it authorises as the API's {@code AWS_IAM} mode
 * does ({@link Builder#sigV4}: every API request must carry a valid SigV4 signature, else 403
 * {@code {"message":"Forbidden"}}), and serves static files at paths of their own ({@link Builder#staticFiles}).
 *
 * <pre>{@code
 * try (HttpApiServer server = HttpApiServer.start(new QueryHandler(config, dynamoDb, s3, presigner), 8080)) {
 *     System.out.println("query API on " + server.url());
 *     server.awaitTermination();   // or do work, then close()
 * }
 * }</pre>
 */
public final class HttpApiServer implements AutoCloseable {
    private static final int THREADS = 8;
    /** The query function's timeout in template.yaml (API Gateway waits at most 29 s). */
    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(29);
    private static final DateTimeFormatter REQUEST_TIME =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT);

    private final HttpServer server;
    private final ExecutorService executor;
    private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler;
    private final SigV4Verifier verifier;
    private final Map<String, StaticFile> staticFiles;
    private final Object stopped = new Object();
    private boolean closed;

    private HttpApiServer(HttpServer server, ExecutorService executor, Builder builder) {
        this.server = server;
        this.executor = executor;
        this.handler = builder.handler;
        this.verifier = builder.verifier;
        this.staticFiles = Map.copyOf(builder.staticFiles);
    }

    /** Serves {@code handler} on 127.0.0.1:{@code port} (0 for a free port). */
    public static HttpApiServer start(RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler,
            int port) {
        return builder(handler).port(port).start();
    }

    public static HttpApiServer start(RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler,
            InetSocketAddress address) {
        return builder(handler).address(address).start();
    }

    public static Builder builder(RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler) {
        return new Builder(handler);
    }

    /** Where to listen, how to authorise, and what else to serve. */
    public static final class Builder {
        private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler;
        private InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        private SigV4Verifier verifier;
        private Map<String, StaticFile> staticFiles = Map.of();

        private Builder(RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler) {
            this.handler = handler;
        }

        /** 127.0.0.1:{@code port}, 0 for a free port (the default). */
        public Builder port(int port) {
            return address(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        }

        public Builder address(InetSocketAddress address) {
            this.address = address;
            return this;
        }

        /** Every API request must be signed for this verifier's credentials, else 403 as API Gateway answers. */
        public Builder sigV4(SigV4Verifier verifier) {
            this.verifier = verifier;
            return this;
        }

        /**
         * Files served as they are for GET at exactly these paths (e.g. {@code /} and
         * {@code /explorer.js}), before and without the API's authorisation: they hold no data.
         */
        public Builder staticFiles(Map<String, StaticFile> files) {
            this.staticFiles = Map.copyOf(files);
            return this;
        }

        public HttpApiServer start() {
            return HttpApiServer.start(this);
        }
    }

    private static HttpApiServer start(Builder builder) {
        InetSocketAddress address = builder.address;
        HttpServer server;
        try {
            server = HttpServer.create(address, 0);
        } catch (IOException e) {
            throw new UncheckedIOException("could not listen on " + address + "; is the port taken?", e);
        }
        AtomicInteger count = new AtomicInteger();
        ExecutorService executor = Executors.newFixedThreadPool(THREADS, runnable -> {
            Thread thread = new Thread(runnable, "http-api-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        HttpApiServer api = new HttpApiServer(server, executor, builder);
        server.createContext("/", api::exchange);
        server.setExecutor(executor);
        server.start();
        return api;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** {@code http://<host>:<port>}, without a trailing slash. */
    public URI url() {
        InetSocketAddress address = server.getAddress();
        String host = address.getAddress().isLoopbackAddress() || address.getAddress().isAnyLocalAddress()
                ? "127.0.0.1" : address.getHostString();
        return URI.create("http://" + host + ":" + address.getPort());
    }

    /** Blocks until {@link #close()} is called (from another thread or a shutdown hook). */
    public void awaitTermination() throws InterruptedException {
        synchronized (stopped) {
            while (!closed) {
                stopped.wait();
            }
        }
    }

    @Override
    public void close() {
        synchronized (stopped) {
            if (closed) {
                return;
            }
            closed = true;
            stopped.notifyAll();
        }
        server.stop(0);
        executor.shutdown();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void exchange(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
            StaticFile file = method.equals("GET") || method.equals("HEAD")
                    ? staticFiles.get(exchange.getRequestURI().getRawPath()) : null;
            if (file != null) {
                write(exchange, page(file));
                return;
            }
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            if (verifier != null) {
                var refusal = verifier.refusal(method, exchange.getRequestURI(), exchange.getRequestHeaders(), body);
                if (refusal.isPresent()) {
                    // API Gateway says no more than this; the reason is for whoever runs the server.
                    System.err.println("http-api: 403 for " + method + " " + exchange.getRequestURI().getRawPath()
                            + ": " + refusal.get());
                    write(exchange, APIGatewayV2HTTPResponse.builder().withStatusCode(403)
                            .withHeaders(Map.of("content-type", "application/json"))
                            .withBody("{\"message\":\"Forbidden\"}").build());
                    return;
                }
            }
            APIGatewayV2HTTPResponse response;
            try {
                response = handler.handleRequest(toEvent(exchange, body),
                        new LocalLambdaContext("datalake-query", QUERY_TIMEOUT, 512));
            } catch (RuntimeException e) {
                // What API Gateway answers when the function fails.
                System.err.println("http-api: the handler failed: " + e);
                response = APIGatewayV2HTTPResponse.builder().withStatusCode(500)
                        .withHeaders(Map.of("content-type", "application/json"))
                        .withBody("{\"message\":\"Internal Server Error\"}").build();
            }
            write(exchange, response);
        }
    }

    /** A static file's response: never cached (the page changes with the code), never sniffed, nothing from elsewhere. */
    private static APIGatewayV2HTTPResponse page(StaticFile file) {
        return APIGatewayV2HTTPResponse.builder().withStatusCode(200)
                .withHeaders(Map.of("content-type", file.contentType(), "cache-control", "no-cache",
                        "x-content-type-options", "nosniff",
                        "content-security-policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"))
                .withBody(Base64.getEncoder().encodeToString(file.body()))
                .withIsBase64Encoded(true).build();
    }

    static APIGatewayV2HTTPEvent toEvent(HttpExchange exchange, byte[] body) {
        URI uri = exchange.getRequestURI();
        String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
        Map<String, String> headers = new LinkedHashMap<>();
        exchange.getRequestHeaders().forEach((name, values) ->
                headers.put(name.toLowerCase(Locale.ROOT), String.join(",", values)));
        // API Gateway adds these; this server speaks plain HTTP, which is what links must then say.
        String sourceIp = exchange.getRemoteAddress().getAddress().getHostAddress();
        headers.putIfAbsent("x-forwarded-proto", "http");
        headers.putIfAbsent("x-forwarded-port", Integer.toString(exchange.getLocalAddress().getPort()));
        headers.putIfAbsent("x-forwarded-for", sourceIp);
        String rawQuery = uri.getRawQuery() == null ? "" : uri.getRawQuery();
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
                        .withPath(uri.getRawPath())
                        .withProtocol(exchange.getProtocol())
                        .withSourceIp(sourceIp)
                        .withUserAgent(headers.get("user-agent"))
                        .build())
                .build();
        return APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0")
                .withRouteKey("$default")
                .withRawPath(uri.getRawPath())
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
        QueryStrings.forEachPair(rawQuery, HttpApiServer::lenientDecode,
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

    private static void write(HttpExchange exchange, APIGatewayV2HTTPResponse response) throws IOException {
        if (response.getHeaders() != null) {
            response.getHeaders().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
        }
        if (response.getMultiValueHeaders() != null) {
            response.getMultiValueHeaders().forEach((name, values) ->
                    values.forEach(value -> exchange.getResponseHeaders().add(name, value)));
        }
        List<String> cookies = response.getCookies();
        if (cookies != null) {
            cookies.forEach(cookie -> exchange.getResponseHeaders().add("set-cookie", cookie));
        }
        String text = response.getBody();
        byte[] body = text == null ? new byte[0]
                : response.getIsBase64Encoded() ? Base64.getDecoder().decode(text) : text.getBytes(StandardCharsets.UTF_8);
        int status = response.getStatusCode() == 0 ? 200 : response.getStatusCode();
        boolean noBody = exchange.getRequestMethod().equalsIgnoreCase("HEAD") || status == 204 || status == 304;
        if (noBody || body.length == 0) {
            exchange.sendResponseHeaders(status, -1);
            return;
        }
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
