package datalake.ingester;

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
 * An HTTP client that never touches the network: it answers each call the ingester makes with a
 * canned success, so that {@link Priming} can run a whole batch through the real SDK clients'
 * marshalling, signing and unmarshalling before a SnapStart snapshot.
 */
final class PrimingHttpClient implements SdkHttpClient {
    /** The user metadata of the object every HEAD describes. */
    static final String METADATA = "{\"version\":0,\"start\":1426809920345,\"end\":null,\"where\":\"priming\","
            + "\"what\":\"priming\",\"id\":\"priming\",\"hash\":\"0123456789abcdef0123456789abcdef\","
            + "\"work_id\":null,\"path\":\"/priming\"}";

    private final AtomicInteger calls = new AtomicInteger();

    /** How many requests it answered. */
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
                    .putHeader("ETag", "\"d41d8cd98f00b204e9800998ecf8427e\"")
                    .putHeader("x-amz-meta-datalake", METADATA);
            body = "";
        } else if (target.startsWith("DynamoDB")) {
            body = target.endsWith("BatchWriteItem") ? "{\"UnprocessedItems\":{}}" : "{}";
        } else if (target.startsWith("AmazonSQS")) {
            body = "{\"Successful\":[],\"Failed\":[]}";
        } else {
            // SNS speaks the query protocol: an XML answer.
            body = "<PublishBatchResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\"><PublishBatchResult>"
                    + "<Successful/><Failed/></PublishBatchResult><ResponseMetadata><RequestId>priming</RequestId>"
                    + "</ResponseMetadata></PublishBatchResponse>";
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
