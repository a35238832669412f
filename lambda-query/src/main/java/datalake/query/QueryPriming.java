package datalake.query;

import datalake.lambda.CannedHttpClient.Answer;
import datalake.lambda.Priming;
import datalake.lambda.SdkClientFactory;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * The query function's SnapStart priming: the routes a client uses most (a time query, a work-id query,
 * latest, a file's metadata and data, a bad request) through the API the handler builds
 * ({@link QueryApi#forAws}), so that the snapshot holds request parsing, the DynamoDB and S3 calls,
 * presigning and the JSON answers, loaded and warmed. Every route answers as for one stored file.
 * Public for the cold-start benchmark, which runs it where no snapshot is taken.
 */
public final class QueryPriming {
    private static final String ITEM = "{\"time_index_key\":{\"S\":\"16513:priming\"},\"range_key\":{\"S\":\"priming:priming\"},"
            + "\"work_id_index_key\":{\"S\":\"nullpriming:priming\"},\"version\":{\"N\":\"0\"},"
            + "\"url\":{\"S\":\"s3://priming/priming/data\"},\"create_time\":{\"N\":\"1426809920345\"},\"size\":{\"N\":\"7\"},"
            + "\"metadata\":{\"M\":{\"version\":{\"N\":\"0\"},\"start\":{\"N\":\"1426809920345\"},\"end\":{\"NULL\":true},"
            + "\"where\":{\"S\":\"priming\"},\"what\":{\"S\":\"priming\"},\"id\":{\"S\":\"priming\"},"
            + "\"hash\":{\"S\":\"0123456789abcdef0123456789abcdef\"},\"work_id\":{\"NULL\":true},\"path\":{\"S\":\"/priming\"}}}}";
    /** The answer of each call the requests make. */
    static final List<Answer> ANSWERS = List.of(
            Priming.headOfTheFile(),
            // the ranged GET of /data: the file's metadata and its first bytes
            new Answer("GET", Map.of("Content-Range", "bytes 0-2/7", "Last-Modified", "Thu, 19 Mar 2015 23:45:20 GMT",
                    "ETag", "\"d41d8cd98f00b204e9800998ecf8427e\"", "x-amz-meta-datalake", Priming.FILE_METADATA), "pri"),
            Answer.body("Query", "{\"Items\":[" + ITEM + "],\"Count\":1,\"ScannedCount\":1}"),
            Answer.body("GetItem", "{}"));
    static final String[][] REQUESTS = {
        {"/v0/archive/files/", "what=priming&where=priming&start=1426809920345&end=1426896320345"},
        {"/v0/archive/files/", "what=priming&work_id=priming"},
        {"/v0/archive/latest/priming/priming", "lookback=1"},
        {"/v0/archive/files/priming/metadata", null},
        {"/v0/archive/files/priming/data", null},
        {"/v0/archive/files/", "what=priming&start=later"},
    };

    private QueryPriming() {
    }

    /**
     * The priming of the API {@code config} builds.
     *
     * @param statuses receives the status of each request's answer, in order
     */
    public static Priming of(QueryConfig config, IntConsumer statuses) {
        return new Priming(ANSWERS, factory -> run(config, factory, statuses));
    }

    private static void run(QueryConfig config, SdkClientFactory factory, IntConsumer statuses) {
        try (QueryClients clients = QueryClients.from(factory, config)) {
            QueryApi api = QueryApi.forAws(config, clients).build();
            for (String[] request : REQUESTS) {
                statuses.accept(api.handle(QueryHandler.get(request[0], request[1])).getStatusCode());
            }
        }
    }
}
