package datalake.emulators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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

    @Test
    void everyConnectionHasTcpNoDelaySoThatNoResponseWaitsForADelayedAck() throws Exception {
        // Nagle's algorithm with the client's delayed ACK held keep-alive responses over ~8 KB for ~40 ms.
        RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler = (event, context) ->
                APIGatewayV2HTTPResponse.builder().withStatusCode(200).withBody("x".repeat(20_000)).build();
        try (HttpApiServer server = HttpApiServer.start(handler, 0)) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(server.url() + "/big")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertEquals(20_000, response.body().length());
            assertTrue(!server.connections().isEmpty(), "the client keeps its connection");
            for (Socket connection : server.connections()) {
                assertTrue(connection.getTcpNoDelay(), "TCP_NODELAY on " + connection);
            }
        }
    }

    @Test
    void beyondItsQueueTheServerAnswers429AtOnceAndRecoversAsSoonAsTheCallersLeave() throws Exception {
        // given a handler that holds every request until released, one at a time, and one request's queue
        CountDownLatch release = new CountDownLatch(1);
        RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler = (event, context) -> {
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return APIGatewayV2HTTPResponse.builder().withStatusCode(200).withBody("{}").build();
        };
        try (HttpApiServer server = HttpApiServer.builder(handler).port(0).concurrency(1).queue(1).start()) {
            // when five callers come at once
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                calls.add(HttpClient.newHttpClient().sendAsync(
                        HttpRequest.newBuilder(URI.create(server.url() + "/v0/archive/")).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }

            // then the three the server cannot hold are answered while the other two still wait: 429, as API Gateway throttles
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (calls.stream().filter(CompletableFuture::isDone).count() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            List<HttpResponse<String>> throttled = calls.stream().filter(CompletableFuture::isDone)
                    .map(CompletableFuture::join).toList();
            assertEquals(3, throttled.size(), "three callers answered while the handler holds the other two");
            for (HttpResponse<String> response : throttled) {
                assertEquals(429, response.statusCode());
                assertEquals("{\"message\":\"Too Many Requests\"}", response.body());
                assertEquals("1", response.headers().firstValue("retry-after").orElseThrow());
            }
            assertEquals(2, calls.stream().filter(c -> !c.isDone()).count(), "one request runs, one waits");

            // and once released, the two held ones are answered, and the next caller at once
            release.countDown();
            for (CompletableFuture<HttpResponse<String>> call : calls) {
                assertTrue(List.of(200, 429).contains(call.get(30, TimeUnit.SECONDS).statusCode()));
            }
            assertEquals(2, calls.stream().filter(c -> c.join().statusCode() == 200).count());
            assertEquals(200, client.send(HttpRequest.newBuilder(URI.create(server.url() + "/v0/archive/")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode());
            assertEquals(3, server.counts().throttled());
        }
    }

    @Test
    void aMalformedPercentEscapeReachesTheHandlerAsSentAndItsAnswerIsTheClients() throws Exception {
        // The JDK's server answered "400 text/html URISyntaxException thrown" before any handler saw it.
        AtomicReference<APIGatewayV2HTTPEvent> seen = new AtomicReference<>();
        RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler = (event, context) -> {
            seen.set(event);
            return APIGatewayV2HTTPResponse.builder().withStatusCode(400)
                    .withHeaders(Map.of("content-type", "application/json"))
                    .withBody("{\"code\":\"InvalidWhat\",\"message\":\"what is not valid.\"}").build();
        };
        try (HttpApiServer server = HttpApiServer.start(handler, 0)) {
            String query = raw(server, "GET /v0/archive/files/?what=%zz&start=1%&end=2 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Connection: close\r\n\r\n");
            assertTrue(query.startsWith("HTTP/1.1 400 "), query);
            assertTrue(query.contains("content-type: application/json"), query);
            assertTrue(query.endsWith("{\"code\":\"InvalidWhat\",\"message\":\"what is not valid.\"}"), query);
            assertEquals("what=%zz&start=1%&end=2", seen.get().getRawQueryString());

            raw(server, "GET /v0/archive/files/%zz/metadata HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
            assertEquals("/v0/archive/files/%zz/metadata", seen.get().getRawPath());
        }
    }

    @Test
    void aRequestTheServerCannotReadIsAnsweredWithApiGatewaysJsonAndTheConnectionClosed() throws Exception {
        RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler = (event, context) -> {
            throw new AssertionError("never reached");
        };
        try (HttpApiServer server = HttpApiServer.start(handler, 0)) {
            String noVersion = raw(server, "GET /v0/archive/\r\n\r\n");
            String badHeader = raw(server, "GET /v0/archive/ HTTP/1.1\r\nBad Header: x\r\n\r\n");
            String chunked = raw(server, "POST /v0/archive/ HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n");

            assertTrue(noVersion.startsWith("HTTP/1.1 400 ") && noVersion.endsWith("{\"message\":\"Bad Request\"}"), noVersion);
            assertTrue(badHeader.startsWith("HTTP/1.1 400 ") && badHeader.contains("connection: close"), badHeader);
            assertTrue(chunked.startsWith("HTTP/1.1 411 "), chunked);
        }
    }

    @Test
    void oneConnectionCarriesRequestAfterRequestAndHeadGetsNoBody() throws Exception {
        RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler = (event, context) ->
                APIGatewayV2HTTPResponse.builder().withStatusCode(200).withBody("{\"path\":\"" + event.getRawPath() + "\"}").build();
        try (HttpApiServer server = HttpApiServer.start(handler, 0)) {
            String both = raw(server, "GET /a HTTP/1.1\r\nHost: localhost\r\n\r\nHEAD /b HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    + "GET /c HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");

            assertEquals(3, both.split("HTTP/1.1 200 ", -1).length - 1, both);
            assertTrue(both.contains("{\"path\":\"/a\"}") && both.endsWith("{\"path\":\"/c\"}"), both);
            assertTrue(!both.contains("/b\"}"), "HEAD has no body: " + both);
        }
    }

    @Test
    void onlyRequestsNamingThisMachinesLoopbackAreAnswered() throws Exception {
        RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler = (event, context) ->
                APIGatewayV2HTTPResponse.builder().withStatusCode(200).withBody("{}").build();
        try (HttpApiServer server = HttpApiServer.start(handler, 0)) {
            // a page of another site whose name was rebound to 127.0.0.1 sends its own name
            for (String host : List.of("attacker.example:" + server.port(), "attacker.example", "127.0.0.1.evil.example",
                    "a_b:8080", "127.0.0.1:x")) {
                String answer = raw(server, "GET /v0/archive/feeds/ HTTP/1.1\r\nHost: " + host
                        + "\r\nConnection: close\r\n\r\n");
                assertTrue(answer.startsWith("HTTP/1.1 403 ") && answer.endsWith("{\"message\":\"Forbidden\"}"),
                        host + ": " + answer);
            }
            for (String host : List.of("127.0.0.1:" + server.port(), "localhost:" + server.port(), "LOCALHOST",
                    "[::1]:" + server.port())) {
                String answer = raw(server, "GET /v0/archive/feeds/ HTTP/1.1\r\nHost: " + host
                        + "\r\nConnection: close\r\n\r\n");
                assertTrue(answer.startsWith("HTTP/1.1 200 "), host + ": " + answer);
            }
        }
    }

    /** Sends bytes as they are and reads until the server closes the connection. */
    private static String raw(HttpApiServer server, String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            in.transferTo(answer);
            return answer.toString(StandardCharsets.UTF_8);
        }
    }
}
