package datalake.query;

import datalake.lambda.CannedHttpClient;
import java.util.Map;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * Answers without the network: DynamoDB queries answer one stored file, GetItem nothing, an S3 HEAD
 * that file's metadata. For {@link Priming}.
 */
final class PrimingHttpClient extends CannedHttpClient {
    private static final String METADATA = "{\"version\":0,\"start\":1426809920345,\"end\":null,\"where\":\"priming\","
            + "\"what\":\"priming\",\"id\":\"priming\",\"hash\":\"0123456789abcdef0123456789abcdef\","
            + "\"work_id\":null,\"path\":\"/priming\"}";
    private static final String ITEM = "{\"time_index_key\":{\"S\":\"16513:priming\"},\"range_key\":{\"S\":\"priming:priming\"},"
            + "\"work_id_index_key\":{\"S\":\"nullpriming:priming\"},\"version\":{\"N\":\"0\"},"
            + "\"url\":{\"S\":\"s3://priming/priming/data\"},\"create_time\":{\"N\":\"1426809920345\"},\"size\":{\"N\":\"7\"},"
            + "\"metadata\":{\"M\":{\"version\":{\"N\":\"0\"},\"start\":{\"N\":\"1426809920345\"},\"end\":{\"NULL\":true},"
            + "\"where\":{\"S\":\"priming\"},\"what\":{\"S\":\"priming\"},\"id\":{\"S\":\"priming\"},"
            + "\"hash\":{\"S\":\"0123456789abcdef0123456789abcdef\"},\"work_id\":{\"NULL\":true},\"path\":{\"S\":\"/priming\"}}}}";

    PrimingHttpClient() {
        super(PrimingHttpClient::answer);
    }

    private static Answer answer(SdkHttpRequest request) {
        if (request.method() == SdkHttpMethod.HEAD) {
            return new Answer(Map.of("Content-Length", "7", "Last-Modified", "Thu, 19 Mar 2015 23:45:20 GMT",
                    "x-amz-meta-datalake", METADATA), "");
        }
        if (request.firstMatchingHeader("X-Amz-Target").orElse("").endsWith("Query")) {
            return Answer.body("{\"Items\":[" + ITEM + "],\"Count\":1,\"ScannedCount\":1}");
        }
        return Answer.body("{}");
    }
}
