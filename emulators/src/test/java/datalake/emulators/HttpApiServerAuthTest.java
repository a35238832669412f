package datalake.emulators;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/** The server with SigV4 authorisation on: signed requests reach the handler, others get API Gateway's 403. */
class HttpApiServerAuthTest {
    private final HttpClient client = HttpClient.newHttpClient();
    private final AtomicInteger handled = new AtomicInteger();
    private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler = (event, context) -> {
        handled.incrementAndGet();
        return APIGatewayV2HTTPResponse.builder().withStatusCode(200).withBody("{\"ok\":true}").build();
    };
    private final PrintStream stderr = System.err;
    private HttpApiServer server;

    @BeforeEach
    void start() {
        System.setErr(new PrintStream(OutputStream.nullOutputStream()));
        server = HttpApiServer.builder(handler).port(0).sigV4(SigV4Verifier.forLocalApi())
                .staticFiles(Map.of("/", new StaticFile("text/html", "<p>page</p>".getBytes(StandardCharsets.UTF_8))))
                .start();
    }

    @AfterEach
    void stop() {
        server.close();
        System.setErr(stderr);
    }

    /** The request as the AWS SDK signs it for execute-api with these credentials, at this time. */
    private HttpRequest signed(String pathAndQuery, String accessKey, String secretKey, Instant at) {
        URI uri = URI.create(server.url() + pathAndQuery);
        SdkHttpFullRequest request = SdkHttpFullRequest.builder().method(SdkHttpMethod.GET).uri(uri).build();
        SdkHttpFullRequest signed = AwsV4HttpSigner.create().sign(r -> r
                .identity(AwsCredentialsIdentity.create(accessKey, secretKey))
                .request(request)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "execute-api")
                .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
                .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(at, ZoneOffset.UTC))).request() instanceof SdkHttpFullRequest full
                ? full : null;
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri);
        signed.headers().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("host")) {
                values.forEach(value -> builder.header(name, value));
            }
        });
        return builder.build();
    }

    private HttpResponse<String> send(HttpRequest request) throws Exception {
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aSignedRequestReachesTheApi() throws Exception {
        HttpResponse<String> response = send(signed("/v0/archive/files/?what=syslog&start=1&end=2",
                Emulators.ACCESS_KEY_ID, Emulators.SECRET_ACCESS_KEY, Instant.now()));

        assertEquals(200, response.statusCode(), response.body());
        assertEquals(1, handled.get());
    }

    @Test
    void unsignedWronglySignedAndExpiredRequestsAre403Forbidden() throws Exception {
        HttpResponse<String> unsigned = send(HttpRequest.newBuilder(URI.create(server.url() + "/v0/archive/")).build());
        HttpResponse<String> wrongKey = send(signed("/v0/archive/", Emulators.ACCESS_KEY_ID, "not-the-secret",
                Instant.now()));
        HttpResponse<String> expired = send(signed("/v0/archive/", Emulators.ACCESS_KEY_ID, Emulators.SECRET_ACCESS_KEY,
                Instant.now().minusSeconds(20 * 60)));
        HttpRequest valid = signed("/v0/archive/files/?what=a", Emulators.ACCESS_KEY_ID, Emulators.SECRET_ACCESS_KEY,
                Instant.now());
        HttpResponse<String> moved = send(HttpRequest.newBuilder(URI.create(server.url() + "/v0/archive/files/?what=b"))
                .headers(valid.headers().map().entrySet().stream()
                        .flatMap(e -> e.getValue().stream().flatMap(v -> java.util.stream.Stream.of(e.getKey(), v)))
                        .toArray(String[]::new)).build());

        for (HttpResponse<String> response : java.util.List.of(unsigned, wrongKey, expired, moved)) {
            assertEquals(403, response.statusCode());
            assertEquals("{\"message\":\"Forbidden\"}", response.body());
            assertEquals("application/json", response.headers().firstValue("content-type").orElseThrow());
        }
        assertEquals(0, handled.get(), "no refused request reaches the function");
    }

    @Test
    void staticFilesAreServedWithoutSignature() throws Exception {
        HttpResponse<String> page = send(HttpRequest.newBuilder(URI.create(server.url() + "/")).build());

        assertEquals(200, page.statusCode());
        assertEquals("<p>page</p>", page.body());
        assertEquals("text/html", page.headers().firstValue("content-type").orElseThrow());
        assertEquals(0, handled.get());
    }
}
