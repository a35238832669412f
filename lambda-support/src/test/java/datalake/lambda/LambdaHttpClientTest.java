package datalake.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * Concurrent calls reuse their connections, and so does a call after the others were idle longer than
 * the JDK keeps them by default: a local HTTP server notes the client ports it sees while waves of
 * {@value #CONCURRENT} calls, more than the JDK's default of 5 idle connections, run through the client,
 * and while calls follow each other after a pause. The JDK reads {@code http.maxConnections} and
 * {@code http.keepAlive.time.server} once per JVM, at its first connection, so this class creates the
 * client before anything else in this module's test JVM connects anywhere.
 */
class LambdaHttpClientTest {
    private static final int CONCURRENT = 12;
    private static final int WAVES = 5;

    private static HttpServer server;
    private static ExecutorService serverThreads;
    private static final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();
    private static final List<Integer> callPorts = new CopyOnWriteArrayList<>();
    private static volatile CountDownLatch arrived;

    @BeforeAll
    static void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        serverThreads = Executors.newFixedThreadPool(CONCURRENT);
        server.setExecutor(serverThreads);
        server.createContext("/", exchange -> {
            clientPorts.add(exchange.getRemoteAddress().getPort());
            callPorts.add(exchange.getRemoteAddress().getPort());
            try (InputStream in = exchange.getRequestBody()) {
                in.readAllBytes();
            }
            // Hold every call of a wave until all of them arrived, so they are truly concurrent.
            arrived.countDown();
            try {
                arrived.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterAll
    static void stopServer() {
        server.stop(0);
        serverThreads.shutdownNow();
    }

    @Test
    void concurrentCallsKeepTheirConnectionsBetweenWaves() throws Exception {
        SdkHttpClient client = LambdaHttpClient.create(CONCURRENT, Duration.ofSeconds(2), Duration.ofSeconds(10));
        ExecutorService callers = Executors.newFixedThreadPool(CONCURRENT);
        try {
            for (int wave = 0; wave < WAVES; wave++) {
                arrived = new CountDownLatch(CONCURRENT);
                List<Future<Integer>> calls = new ArrayList<>();
                for (int i = 0; i < CONCURRENT; i++) {
                    calls.add(callers.submit(() -> call(client)));
                }
                for (Future<Integer> call : calls) {
                    assertEquals(200, call.get(20, TimeUnit.SECONDS));
                }
            }
        } finally {
            callers.shutdownNow();
            client.close();
        }
        // With the JDK's default, every wave after the first would open 7 new connections (12 - 5).
        assertEquals(CONCURRENT, clientPorts.size(),
                "connections opened for " + WAVES + " waves of " + CONCURRENT + " concurrent calls");
    }

    @Test
    void aConnectionIdleLongerThanTheJdksDefaultFiveSecondsIsUsedAgain() throws Exception {
        // given a call made through the function's client
        SdkHttpClient client = LambdaHttpClient.create(CONCURRENT, Duration.ofSeconds(2), Duration.ofSeconds(10));
        try {
            arrived = new CountDownLatch(1);
            assertEquals(200, call(client));
            int first = callPorts.getLast();

            // when the next call comes after its connection was idle for longer than 5 seconds (JDK's nap: 5,000 ms)
            Thread.sleep(5_200);
            arrived = new CountDownLatch(1);
            assertEquals(200, call(client));

            // then it came over the same connection: no new one, no TLS handshake against AWS
            assertEquals(first, callPorts.getLast(), "the client port of the call after the pause");
        } finally {
            client.close();
        }
    }

    @Test
    void keepsIdleConnectionsFiftyFiveSecondsUnlessToldOtherwise() {
        String before = System.getProperty(LambdaHttpClient.IDLE_TIME_PROPERTY);
        try {
            System.clearProperty(LambdaHttpClient.IDLE_TIME_PROPERTY);
            LambdaHttpClient.keepIdleTime();
            assertEquals("55", System.getProperty(LambdaHttpClient.IDLE_TIME_PROPERTY));
            System.setProperty(LambdaHttpClient.IDLE_TIME_PROPERTY, "20");
            LambdaHttpClient.keepIdleTime();
            assertEquals("20", System.getProperty(LambdaHttpClient.IDLE_TIME_PROPERTY));
        } finally {
            if (before == null) {
                System.clearProperty(LambdaHttpClient.IDLE_TIME_PROPERTY);
            } else {
                System.setProperty(LambdaHttpClient.IDLE_TIME_PROPERTY, before);
            }
        }
    }

    @Test
    void raisesTheSettingButNeverLowersIt() {
        String before = System.getProperty(LambdaHttpClient.KEEP_ALIVE_PROPERTY);
        try {
            System.setProperty(LambdaHttpClient.KEEP_ALIVE_PROPERTY, "50");
            LambdaHttpClient.keepIdleConnections(8);
            assertEquals("50", System.getProperty(LambdaHttpClient.KEEP_ALIVE_PROPERTY));
            System.setProperty(LambdaHttpClient.KEEP_ALIVE_PROPERTY, "not a number");
            LambdaHttpClient.keepIdleConnections(8);
            assertEquals("8", System.getProperty(LambdaHttpClient.KEEP_ALIVE_PROPERTY));
            LambdaHttpClient.keepIdleConnections(36);
            assertEquals("36", System.getProperty(LambdaHttpClient.KEEP_ALIVE_PROPERTY));
            assertThrows(IllegalArgumentException.class, () -> LambdaHttpClient.keepIdleConnections(0));
        } finally {
            if (before == null) {
                System.clearProperty(LambdaHttpClient.KEEP_ALIVE_PROPERTY);
            } else {
                System.setProperty(LambdaHttpClient.KEEP_ALIVE_PROPERTY, before);
            }
        }
    }

    private static int call(SdkHttpClient client) throws IOException {
        SdkHttpRequest request = SdkHttpRequest.builder()
                .uri(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/call"))
                .method(SdkHttpMethod.GET)
                .build();
        HttpExecuteResponse response = client.prepareRequest(HttpExecuteRequest.builder().request(request).build()).call();
        try (InputStream body = response.responseBody().orElseThrow()) {
            body.readAllBytes();
        }
        return response.httpResponse().statusCode();
    }
}
