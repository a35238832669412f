package datalake.ingester;

import datalake.lambda.CannedHttpClient;
import java.util.Map;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * Answers each call the ingester makes with a canned success, so that {@link Priming} can run a
 * whole batch through the real SDK clients before a SnapStart snapshot.
 */
final class PrimingHttpClient extends CannedHttpClient {
    /** The user metadata of the object every HEAD describes. */
    static final String METADATA = "{\"version\":0,\"start\":1426809920345,\"end\":null,\"where\":\"priming\","
            + "\"what\":\"priming\",\"id\":\"priming\",\"hash\":\"0123456789abcdef0123456789abcdef\","
            + "\"work_id\":null,\"path\":\"/priming\"}";

    PrimingHttpClient() {
        super(PrimingHttpClient::answer);
    }

    private static Answer answer(SdkHttpRequest request) {
        String target = request.firstMatchingHeader("X-Amz-Target").orElse("");
        if (request.method() == SdkHttpMethod.HEAD) {
            return new Answer(Map.of("Content-Length", "7", "Last-Modified", "Thu, 19 Mar 2015 23:45:20 GMT",
                    "ETag", "\"d41d8cd98f00b204e9800998ecf8427e\"", "x-amz-meta-datalake", METADATA), "");
        }
        if (target.startsWith("DynamoDB")) {
            return Answer.body(target.endsWith("BatchWriteItem") ? "{\"UnprocessedItems\":{}}" : "{}");
        }
        if (target.startsWith("AmazonSQS")) {
            return Answer.body("{\"Successful\":[],\"Failed\":[]}");
        }
        // SNS speaks the query protocol: an XML answer.
        return Answer.body("<PublishBatchResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\"><PublishBatchResult>"
                + "<Successful/><Failed/></PublishBatchResult><ResponseMetadata><RequestId>priming</RequestId>"
                + "</ResponseMetadata></PublishBatchResponse>");
    }
}
