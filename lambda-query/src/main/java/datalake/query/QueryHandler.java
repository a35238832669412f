package datalake.query;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import java.time.Clock;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The query Lambda: API Gateway HTTP API (payload format 2.0) in, the datalake v0 HTTP API out.
 * Everything is built once, in the constructor; a request is one log line and one call to {@link QueryApi}.
 */
public final class QueryHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {
    private final QueryApi api;

    /** The Lambda runtime's constructor: configuration from the environment (README, "Configuration"). */
    public QueryHandler() {
        this(QueryConfig.fromEnvironment(System.getenv()));
    }

    /** SDK clients built from {@code config} (region, endpoints, path style): for a local runner. */
    public QueryHandler(QueryConfig config) {
        this(config, SdkClients.dynamoDb(config), SdkClients.s3(config), SdkClients.presigner(config));
    }

    /** The given SDK clients, e.g. clients of emulators in tests. */
    public QueryHandler(QueryConfig config, DynamoDbClient dynamoDb, S3Client s3, S3Presigner presigner) {
        this(new QueryApi(config,
                new DynamoRecordsTable(dynamoDb, config.recordsTable()),
                config.latestTable() == null ? null : new DynamoLatestTable(dynamoDb, config.latestTable()),
                new S3FileStore(s3, presigner),
                Clock.systemUTC()));
    }

    public QueryHandler(QueryApi api) {
        this.api = api;
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        long started = System.nanoTime();
        APIGatewayV2HTTPResponse response = api.handle(event);
        log(context, LogLines.request(event, response.getStatusCode(), (System.nanoTime() - started) / 1_000_000));
        return response;
    }

    private static void log(Context context, String line) {
        if (context != null && context.getLogger() != null) {
            context.getLogger().log(line + "\n");
        } else {
            System.out.println(line);
        }
    }
}
