package datalake.query;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
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
 * An HTTP client that never touches the network: DynamoDB queries answer one stored file, GetItem
 * nothing, an S3 HEAD that file's metadata. For {@link Priming}.
 */
final class PrimingHttpClient implements SdkHttpClient {
    private static final String METADATA = "{\"version\":0,\"start\":1426809920345,\"end\":null,\"where\":\"priming\","
            + "\"what\":\"priming\",\"id\":\"priming\",\"hash\":\"0123456789abcdef0123456789abcdef\","
            + "\"work_id\":null,\"path\":\"/priming\"}";
    private static final String ITEM = "{\"time_index_key\":{\"S\":\"16513:priming\"},\"range_key\":{\"S\":\"priming:priming\"},"
            + "\"work_id_index_key\":{\"S\":\"nullpriming:priming\"},\"version\":{\"N\":\"0\"},"
            + "\"url\":{\"S\":\"s3://priming/priming/data\"},\"create_time\":{\"N\":\"1426809920345\"},\"size\":{\"N\":\"7\"},"
            + "\"metadata\":{\"M\":{\"version\":{\"N\":\"0\"},\"start\":{\"N\":\"1426809920345\"},\"end\":{\"NULL\":true},"
            + "\"where\":{\"S\":\"priming\"},\"what\":{\"S\":\"priming\"},\"id\":{\"S\":\"priming\"},"
            + "\"hash\":{\"S\":\"0123456789abcdef0123456789abcdef\"},\"work_id\":{\"NULL\":true},\"path\":{\"S\":\"/priming\"}}}}";

    private final AtomicInteger calls = new AtomicInteger();

    int calls() {
        return calls.get();
    }

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
        return new ExecutableHttpRequest() {
            @Override
            public HttpExecuteResponse call() {
                calls.incrementAndGet();
                return answer(request.httpRequest());
            }

            @Override
            public void abort() {
            }
        };
    }

    private static HttpExecuteResponse answer(SdkHttpRequest request) {
        SdkHttpResponse.Builder response = SdkHttpResponse.builder().statusCode(200).putHeader("x-amz-request-id", "priming");
        String target = request.firstMatchingHeader("X-Amz-Target").orElse("");
        String body;
        if (request.method() == SdkHttpMethod.HEAD) {
            response.putHeader("Content-Length", "7")
                    .putHeader("Last-Modified", "Thu, 19 Mar 2015 23:45:20 GMT")
                    .putHeader("x-amz-meta-datalake", METADATA);
            body = "";
        } else if (target.endsWith("Query")) {
            body = "{\"Items\":[" + ITEM + "],\"Count\":1,\"ScannedCount\":1}";
        } else {
            body = "{}";
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
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
