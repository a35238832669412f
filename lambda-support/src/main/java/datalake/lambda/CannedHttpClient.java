package datalake.lambda;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * An HTTP client that never touches the network: every request gets a 200 with the headers and body
 * a function chooses. SnapStart priming runs the real SDK clients (marshalling, signing,
 * unmarshalling) on it before the snapshot.
 */
public class CannedHttpClient implements SdkHttpClient {
    private final Function<SdkHttpRequest, Answer> answers;
    private final AtomicInteger calls = new AtomicInteger();

    /** The headers and body of a 200 answer; HEAD answers send no body, so give their Content-Length. */
    public record Answer(Map<String, String> headers, String body) {
        public static Answer body(String body) {
            return new Answer(Map.of(), body);
        }
    }

    public CannedHttpClient(Function<SdkHttpRequest, Answer> answers) {
        this.answers = answers;
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
                calls.incrementAndGet();
                return respond(request.httpRequest());
            }

            @Override
            public void abort() {
            }
        };
    }

    private HttpExecuteResponse respond(SdkHttpRequest request) {
        Answer answer = answers.apply(request);
        SdkHttpResponse.Builder response = SdkHttpResponse.builder().statusCode(200).putHeader("x-amz-request-id", "priming");
        answer.headers().forEach(response::putHeader);
        byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
        if (request.method() != SdkHttpMethod.HEAD) {
            response.putHeader("Content-Length", Integer.toString(bytes.length));
        }
        return HttpExecuteResponse.builder().response(response.build())
                .responseBody(AbortableInputStream.create(new ByteArrayInputStream(bytes))).build();
    }

    @Override
    public String clientName() {
        return "datalake-priming";
    }

    @Override
    public void close() {
    }
}
