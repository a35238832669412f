package datalake.query;

import datalake.lambda.LambdaCredentials;
import java.time.Clock;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * SnapStart priming: before the snapshot, the routes a client uses most (a time query, a work-id query,
 * latest, a file's metadata and data, a bad request) run through a complete {@link QueryApi} on SDK
 * clients that answer from {@link PrimingHttpClient} with dummy credentials: the snapshot then holds
 * the classes and warmed code of parsing, the DynamoDB and S3 calls, presigning and the JSON answers.
 * Nothing is sent and nothing is logged. Best effort: a failure leaves the snapshot unprimed.
 */
final class Priming {
    private static final String[][] REQUESTS = {
        {"/v0/archive/files/", "what=priming&where=priming&start=1426809920345&end=1426896320345"},
        {"/v0/archive/files/", "what=priming&work_id=priming"},
        {"/v0/archive/latest/priming/priming", "lookback=1"},
        {"/v0/archive/files/priming/metadata", null},
        {"/v0/archive/files/priming/data", null},
        {"/v0/archive/files/", "what=priming&start=later"},
    };

    private final QueryConfig config;

    Priming(QueryConfig config) {
        this.config = config;
    }

    /** Runs the priming requests; returns the status of each answer, then the HTTP calls answered. */
    java.util.List<Integer> prime() {
        java.util.List<Integer> statuses = new java.util.ArrayList<>();
        PrimingHttpClient http = new PrimingHttpClient();
        try (DynamoDbClient dynamoDb = SdkClients.dynamoDb(config, http, LambdaCredentials.PRIMING);
             S3Client s3 = SdkClients.s3(config, http, LambdaCredentials.PRIMING);
             S3Presigner presigner = SdkClients.presigner(config, LambdaCredentials.PRIMING)) {
            QueryApi api = new QueryApi(config,
                    new DynamoRecordsTable(dynamoDb, config.recordsTable()),
                    config.latestTable() == null ? null : new DynamoLatestTable(dynamoDb, config.latestTable()),
                    new S3FileStore(s3, presigner),
                    Clock.systemUTC());
            for (String[] request : REQUESTS) {
                statuses.add(api.handle(QueryHandler.get(request[0], request[1])).getStatusCode());
            }
        }
        statuses.add(http.calls());
        return statuses;
    }
}
