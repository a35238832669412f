package datalake.lambda;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * An HTTP client that never touches the network: each request gets a 200 with the headers and body of
 * the canned {@link Answer} for its operation. SnapStart priming runs the real SDK clients
 * (marshalling, signing, unmarshalling) on it before the snapshot; each function gives its answers as
 * data. A request with no answer fails, so a priming run that makes an unexpected call is noticed.
 */
public final class CannedHttpClient implements SdkHttpClient {
    private final Map<String, Answer> answers = new LinkedHashMap<>();
    private final AtomicInteger calls = new AtomicInteger();

    /**
     * The answer to one operation.
     *
     * @param operation the operation as the request names it: the part of {@code X-Amz-Target} after the
     *                  dot (JSON protocols: {@code BatchWriteItem}, {@code SendMessageBatch}), the
     *                  {@code Action} of a query-protocol body ({@code PublishBatch}), else the HTTP
     *                  method (S3's REST calls: {@code HEAD})
     * @param headers   response headers; a HEAD answer has no body, so give its Content-Length
     */
    public record Answer(String operation, Map<String, String> headers, String body) {
        public static Answer body(String operation, String body) {
            return new Answer(operation, Map.of(), body);
        }
    }

    public CannedHttpClient(List<Answer> answers) {
        for (Answer answer : answers) {
            this.answers.put(answer.operation(), answer);
        }
    }

    /** How many requests it answered. */
    public int calls() {
        return calls.get();
    }

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
        return new ExecutableHttpRequest() {
            @Override
            public HttpExecuteResponse call() {
                HttpExecuteResponse response = respond(request);
                calls.incrementAndGet();
                return response;
            }

            @Override
            public void abort() {
            }
        };
    }

    private HttpExecuteResponse respond(HttpExecuteRequest request) {
        SdkHttpRequest http = request.httpRequest();
        String operation = operation(request);
        Answer answer = answers.get(operation);
        if (answer == null) {
            throw new IllegalStateException("no canned answer for " + operation);
        }
        SdkHttpResponse.Builder response = SdkHttpResponse.builder().statusCode(200).putHeader("x-amz-request-id", "priming");
        answer.headers().forEach(response::putHeader);
        byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
        if (http.method() != SdkHttpMethod.HEAD) {
            response.putHeader("Content-Length", Integer.toString(bytes.length));
        }
        return HttpExecuteResponse.builder().response(response.build())
                .responseBody(AbortableInputStream.create(new ByteArrayInputStream(bytes))).build();
    }

    /** The operation a request calls: see {@link Answer#operation()}. */
    static String operation(HttpExecuteRequest request) {
        SdkHttpRequest http = request.httpRequest();
        String target = http.firstMatchingHeader("X-Amz-Target").orElse(null);
        if (target != null) {
            return target.substring(target.indexOf('.') + 1);
        }
        String type = http.firstMatchingHeader("Content-Type").orElse("");
        if (type.startsWith("application/x-www-form-urlencoded") && request.contentStreamProvider().isPresent()) {
            try (InputStream body = request.contentStreamProvider().get().newStream()) {
                for (String pair : new String(body.readAllBytes(), StandardCharsets.UTF_8).split("&", -1)) {
                    if (pair.startsWith("Action=")) {
                        return URLDecoder.decode(pair.substring(7), StandardCharsets.UTF_8);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return http.method().name();
    }

    @Override
    public String clientName() {
        return "datalake-priming";
    }

    @Override
    public void close() {
    }
}
