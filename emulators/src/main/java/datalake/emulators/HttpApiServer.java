package datalake.emulators;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Serves an API Gateway HTTP API handler (payload format 2.0) over plain HTTP/1.1 ({@link HttpWire}):
 * each request becomes an {@link APIGatewayV2HTTPEvent} as API Gateway would send it ({@code $default}
 * stage and route, the raw path and query as sent), and the handler's response is written back. For
 * local runs and tests; no TLS. Optionally it authorises as the API's {@code AWS_IAM} mode does
 * ({@link Builder#sigV4}: every API request must carry a valid SigV4 signature, else 403
 * {@code {"message":"Forbidden"}}), and serves static files at paths of their own ({@link Builder#staticFiles}).
 *
 * <p>Bounded everywhere, so that overload passes as soon as the callers leave: at most
 * {@link Builder#concurrency} requests run in the handler and {@link Builder#queue} wait for it; one more
 * is answered at once as API Gateway throttles, 429 {@code {"message":"Too Many Requests"}} with
 * {@code Retry-After}; beyond {@value #MAX_CONNECTIONS} open connections a new one is answered 503. Every
 * connection has TCP_NODELAY: a response is one write, and nothing waits for the client's delayed ACK.
 *
 * <pre>{@code
 * try (HttpApiServer server = HttpApiServer.start(new QueryHandler(config, dynamoDb, s3, presigner), 8080)) {
 *     System.out.println("query API on " + server.url());
 *     server.awaitTermination();   // or do work, then close()
 * }
 * }</pre>
 */
public final class HttpApiServer implements AutoCloseable {
    static final int MAX_CONNECTIONS = 512;
    /** The query function's timeout in template.yaml (API Gateway waits at most 29 s). */
    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(29);
    /** How long a keep-alive connection may wait for its next request (and a request for its next byte). */
    private static final int IDLE_MILLIS = 30_000;
    private static final String RETRY_AFTER_SECONDS = "1";

    private final ServerSocket socket;
    private final ThreadPoolExecutor executor;
    private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler;
    private final SigV4Verifier verifier;
    private final Map<String, StaticFile> staticFiles;
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
    private final ApiTraffic traffic = new ApiTraffic();
    private final Object stopped = new Object();
    private boolean closed;

    private HttpApiServer(ServerSocket socket, Builder builder) {
        this.socket = socket;
        this.handler = builder.handler;
        this.verifier = builder.verifier;
        this.staticFiles = Map.copyOf(builder.staticFiles);
        AtomicInteger count = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(builder.concurrency, builder.concurrency, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(builder.queue), runnable -> {
                    Thread thread = new Thread(runnable, "http-api-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                }, new ThreadPoolExecutor.AbortPolicy());
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

    /** Where to listen, how to authorise, what else to serve, and how much to take on at once. */
    public static final class Builder {
        private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler;
        private InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        private SigV4Verifier verifier;
        private Map<String, StaticFile> staticFiles = Map.of();
        private int concurrency = 8;
        private int queue = 64;

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

        /** Requests the handler runs at once (8). */
        public Builder concurrency(int requests) {
            if (requests < 1) {
                throw new IllegalArgumentException("the concurrency must be at least 1, not " + requests + ".");
            }
            this.concurrency = requests;
            return this;
        }

        /** Requests that may wait for the handler (64); one more is answered 429. */
        public Builder queue(int requests) {
            if (requests < 1) {
                throw new IllegalArgumentException("the queue must hold at least 1 request, not " + requests + ".");
            }
            this.queue = requests;
            return this;
        }

        public HttpApiServer start() {
            ServerSocket listening;
            try {
                listening = new ServerSocket();
                listening.setReuseAddress(true);
                listening.bind(address, 128);
            } catch (IOException e) {
                throw new UncheckedIOException("could not listen on " + address + "; is the port taken?", e);
            }
            HttpApiServer server = new HttpApiServer(listening, this);
            Thread acceptor = new Thread(server::accept, "http-api-accept-" + listening.getLocalPort());
            acceptor.setDaemon(true);
            acceptor.start();
            return server;
        }
    }

    /** Requests answered so far, by outcome. */
    public record Counts(long requests, long clientErrors, long serverErrors, long throttled) {
    }

    public Counts counts() {
        return traffic.counts();
    }

    public int port() {
        return socket.getLocalPort();
    }

    /** {@code http://<host>:<port>}, without a trailing slash. */
    public URI url() {
        InetAddress address = socket.getInetAddress();
        String host = address.isLoopbackAddress() || address.isAnyLocalAddress() ? "127.0.0.1" : address.getHostAddress();
        return URI.create("http://" + host + ":" + port());
    }

    /** The open connections' sockets, for tests of their options. */
    List<Socket> connections() {
        return List.copyOf(connections);
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
        closeQuietly(socket);
        connections.forEach(HttpApiServer::closeQuietly);
        executor.shutdown();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean isClosed() {
        synchronized (stopped) {
            return closed;
        }
    }

    private void accept() {
        int count = 0;
        while (!isClosed()) {
            Socket client;
            try {
                client = socket.accept();
                client.setTcpNoDelay(true);
            } catch (IOException e) {
                if (!isClosed()) {
                    System.err.println("http-api: accept failed: " + e.getMessage());
                }
                continue;
            }
            if (connections.size() >= MAX_CONNECTIONS) {
                refuseConnection(client);
                continue;
            }
            connections.add(client);
            Thread.ofVirtual().name("http-api-connection-" + ++count).start(() -> serve(client));
        }
    }

    /** One more connection than the server keeps: answered 503 at once, then closed. */
    private void refuseConnection(Socket client) {
        try (client) {
            client.setSoTimeout(1_000);
            traffic.refused();
            HttpWire.write(client.getOutputStream(), 503, List.of(Map.entry("content-type", "application/json"),
                    Map.entry("retry-after", RETRY_AFTER_SECONDS)),
                    "{\"message\":\"Service Unavailable\"}".getBytes(StandardCharsets.UTF_8), false, true);
        } catch (IOException e) {
            // the client is gone; nothing to answer
        }
    }

    /** The requests of one connection, one after another, until either side closes it. */
    private void serve(Socket client) {
        try (client) {
            client.setSoTimeout(IDLE_MILLIS);
            InputStream in = new BufferedInputStream(client.getInputStream());
            OutputStream out = client.getOutputStream();
            while (!isClosed()) {
                Optional<HttpWire.WireRequest> request;
                try {
                    request = HttpWire.read(in, out);
                } catch (HttpWire.MalformedRequestException e) {
                    // What API Gateway says of a request it cannot read; the connection cannot be trusted after it.
                    traffic.count(e.status());
                    HttpWire.write(out, e.status(), List.of(Map.entry("content-type", "application/json")),
                            ("{\"message\":\"" + e.getMessage() + "\"}").getBytes(StandardCharsets.UTF_8), false, true);
                    return;
                }
                if (request.isEmpty()) {
                    return;
                }
                boolean keepAlive = request.get().keepAlive();
                APIGatewayV2HTTPResponse response = respond(request.get(), client);
                int status = response.getStatusCode() == 0 ? 200 : response.getStatusCode();
                traffic.count(status);
                HttpWire.write(out, status, HttpApiEvents.headers(response), HttpApiEvents.body(response),
                        request.get().method().equalsIgnoreCase("HEAD"), !keepAlive);
                if (!keepAlive) {
                    return;
                }
            }
        } catch (SocketTimeoutException | SocketException idleOrGone) {
            // an idle keep-alive connection, or a client that left: nothing to answer
        } catch (IOException e) {
            // the same, seen by a read or a write
        } finally {
            connections.remove(client);
        }
    }

    /**
     * Whether a Host header names this machine's loopback interface, where the server listens (its
     * port, if any, aside): a browser sends the name it resolved, so a page served elsewhere that
     * rebinds its own name to 127.0.0.1 is refused.
     */
    static boolean isLoopback(String host) {
        String name = host.strip().toLowerCase(Locale.ROOT);
        int colon = name.lastIndexOf(':');
        if (colon >= 0 && !name.endsWith("]") && name.substring(colon + 1).chars().allMatch(Character::isDigit)) {
            name = name.substring(0, colon);
        }
        return name.equals("127.0.0.1") || name.equals("localhost") || name.equals("[::1]");
    }

    /** Text from a request, safe on a terminal: control characters as {@code ?}. */
    private static String printable(String text) {
        return text.codePoints().map(c -> Character.isISOControl(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
    }

    private APIGatewayV2HTTPResponse respond(HttpWire.WireRequest request, Socket client) {
        String method = request.method().toUpperCase(Locale.ROOT);
        Optional<String> host = request.header("host");
        if (host.isPresent() && !isLoopback(host.get())) {
            // A page whose name was pointed at 127.0.0.1 (DNS rebinding) sends its own name: it reads nothing.
            System.err.println("http-api: 403 for " + method + " " + printable(request.rawPath()) + ": Host "
                    + printable(host.get()) + " is not this machine's loopback name");
            return HttpApiEvents.json(403, "{\"message\":\"Forbidden\"}");
        }
        StaticFile file = method.equals("GET") || method.equals("HEAD") ? staticFiles.get(request.rawPath()) : null;
        if (file != null) {
            return HttpApiEvents.page(file);
        }
        if (verifier != null) {
            Optional<String> refusal;
            try {
                refusal = verifier.refusal(method, request.rawPath(), request.rawQuery(), request.headers(),
                        request.body());
            } catch (RuntimeException unverifiable) {
                refusal = Optional.of("the request cannot be verified (" + unverifiable + ")");
            }
            if (refusal.isPresent()) {
                // API Gateway says no more than this; the reason is for whoever runs the server.
                System.err.println("http-api: 403 for " + method + " " + printable(request.rawPath()) + ": "
                        + printable(refusal.get()));
                return HttpApiEvents.json(403, "{\"message\":\"Forbidden\"}");
            }
        }
        APIGatewayV2HTTPEvent event = HttpApiEvents.toEvent(request, client);
        Future<APIGatewayV2HTTPResponse> answer;
        try {
            answer = executor.submit(() -> handler.handleRequest(event,
                    new LocalLambdaContext("datalake-query", QUERY_TIMEOUT, 512)));
        } catch (RejectedExecutionException full) {
            APIGatewayV2HTTPResponse throttled = HttpApiEvents.json(429, "{\"message\":\"Too Many Requests\"}");
            throttled.getHeaders().put("retry-after", RETRY_AFTER_SECONDS);
            return throttled;
        }
        try {
            return answer.get();
        } catch (ExecutionException e) {
            // What API Gateway answers when the function fails.
            System.err.println("http-api: the handler failed: " + e.getCause());
            return HttpApiEvents.json(500, "{\"message\":\"Internal Server Error\"}");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return HttpApiEvents.json(503, "{\"message\":\"Service Unavailable\"}");
        }
    }

    private static void closeQuietly(java.io.Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
