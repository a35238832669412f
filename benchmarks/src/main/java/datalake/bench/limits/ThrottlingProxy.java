package datalake.bench.limits;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import datalake.emulators.Emulators;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * DynamoDB's partition limits in front of dynalite, which never throttles: an HTTP proxy that
 * decides every request against a {@link PartitionModel} ({@link PartitionGate}) and answers as DynamoDB
 * does on the wire, so that the real SDK's retries and a caller's handling of UnprocessedItems run
 * unchanged. A refused request gets HTTP 400 with DynamoDB's ProvisionedThroughputExceededException body;
 * an admitted one goes to dynalite, and a rewritten answer gets its {@code x-amz-crc32} again (the
 * SDK checks it). Table keys come from DescribeTable, asked once per table. For the benchmarks and tests
 * only: the clients signed for the proxy, and dynalite does not check signatures.
 *
 * <pre>{@code
 * try (ThrottlingProxy proxy = ThrottlingProxy.start(dynalite.endpoint(), PartitionLimits.scaledDown(10))) {
 *     DynamoDbClient dynamo = Emulators.clientsFor(proxy.endpoint()).build(DynamoDbClient.builder());
 *     ...
 *     proxy.model().throttledWrites();
 * }
 * }</pre>
 */
public final class ThrottlingProxy implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TARGET_PREFIX = "DynamoDB_20120810.";
    /** Headers the JDK's client sets itself, and the encoding we want plain. */
    private static final Set<String> NOT_FORWARDED = Set.of("host", "connection", "content-length", "expect", "upgrade",
            "transfer-encoding", "accept-encoding", "keep-alive");
    private static final Set<String> NOT_RETURNED = Set.of("content-length", "transfer-encoding", "connection", "date");
    private static final Set<String> SCHEMA_CHANGES = Set.of("CreateTable", "DeleteTable", "UpdateTable");
    private static final int THREADS = 64;

    private final HttpServer server;
    private final ExecutorService executor;
    private final URI upstream;
    private final HttpClient http;
    private final DynamoDbClient describer;
    private final PartitionModel model;
    private final PartitionGate gate;
    private final Map<String, TableKeys> tables = new ConcurrentHashMap<>();

    private ThrottlingProxy(URI upstream, PartitionModel model) throws IOException {
        this.upstream = upstream;
        this.model = model;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
        this.describer = Emulators.clientsFor(upstream).build(DynamoDbClient.builder());
        this.gate = new PartitionGate(model, this::tableKeys);
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        this.executor = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "throttling-proxy");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** A proxy on a free port of 127.0.0.1 in front of the DynamoDB at {@code upstream}, on the system's clock. */
    public static ThrottlingProxy start(URI upstream, PartitionLimits limits) {
        return start(upstream, new PartitionModel(limits, System::nanoTime));
    }

    /** The same with a model of one's own (a test's clock). */
    public static ThrottlingProxy start(URI upstream, PartitionModel model) {
        try {
            return new ThrottlingProxy(upstream, model);
        } catch (IOException e) {
            throw new UncheckedIOException("the throttling proxy could not listen on 127.0.0.1", e);
        }
    }

    /** Where clients send their DynamoDB requests. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** What every key admitted and refused. */
    public PartitionModel model() {
        return model;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        describer.close();
        http.close();
    }

    /** A table's keys, described once; a table that does not exist (yet) is asked about again next time. */
    private Optional<TableKeys> tableKeys(String table) {
        return Optional.ofNullable(tables.computeIfAbsent(table, name -> {
            try {
                return TableKeys.of(describer.describeTable(r -> r.tableName(name)).table());
            } catch (ResourceNotFoundException missing) {
                return null; // not kept
            }
        }));
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            String target = Optional.ofNullable(exchange.getRequestHeaders().getFirst("X-Amz-Target")).orElse("");
            String operation = target.startsWith(TARGET_PREFIX) ? target.substring(TARGET_PREFIX.length()) : "";
            PartitionGate.Decision decision = PartitionGate.Decision.UNCHANGED;
            if (!operation.isEmpty() && body.length > 0) {
                JsonNode request = JSON.readTree(body);
                if (request instanceof ObjectNode object) {
                    decision = gate.decide(operation, object);
                }
            }
            switch (decision) {
                case PartitionGate.Refuse refuse -> respond(exchange, 400, Map.of("Content-Type",
                        List.of("application/x-amz-json-1.0"), "x-amzn-RequestId", List.of(requestId())),
                        JSON.writeValueAsBytes(refuse.error()), true);
                case PartitionGate.Forward forward -> forward(exchange, operation,
                        forward.request().map(ThrottlingProxy::bytes).orElse(body), forward.answer());
            }
        } catch (IOException | RuntimeException e) {
            // No answer: the SDK sees a broken connection (as if dynalite were gone) and retries.
            System.err.println("{\"level\":\"WARN\",\"message\":\"throttling proxy: " + e.getClass().getSimpleName() + "\"}");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void forward(HttpExchange exchange, String operation, byte[] body, Optional<PartitionGate.Answer> answer)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(upstream.resolve(exchange.getRequestURI()))
                .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
        exchange.getRequestHeaders().forEach((name, values) -> {
            if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(v -> request.header(name, v));
            }
        });
        HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        if (SCHEMA_CHANGES.contains(operation)) {
            tables.clear();
        }
        byte[] out = response.body();
        boolean rewritten = false;
        if (response.statusCode() == 200 && answer.isPresent() && out.length > 0
                && JSON.readTree(out) instanceof ObjectNode parsed) {
            Optional<ObjectNode> changed = answer.get().read(parsed);
            if (changed.isPresent()) {
                out = bytes(changed.get());
                rewritten = true;
            }
        }
        respond(exchange, response.statusCode(), response.headers().map(), out, rewritten);
    }

    private static void respond(HttpExchange exchange, int status, Map<String, List<String>> headers, byte[] body,
            boolean newChecksum) throws IOException {
        headers.forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!NOT_RETURNED.contains(lower) && !(newChecksum && lower.equals("x-amz-crc32")) && !name.startsWith(":")) {
                exchange.getResponseHeaders().put(name, values);
            }
        });
        if (newChecksum) {
            CRC32 crc = new CRC32();
            crc.update(body);
            exchange.getResponseHeaders().set("x-amz-crc32", Long.toString(crc.getValue()));
        }
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static byte[] bytes(ObjectNode json) {
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String requestId() {
        return UUID.randomUUID().toString().replace("-", "").toUpperCase(Locale.ROOT);
    }
}
