package datalake.query;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import datalake.lambda.SnapshotPriming;
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
    /** Held here: CRaC keeps only weak references to the resources registered with it. */
    private final SnapshotPriming priming;

    /**
     * The Lambda runtime's constructor: configuration from the environment (README, "Configuration"),
     * and SnapStart priming registered for the snapshot (a no-op on a JVM without CRaC).
     */
    public QueryHandler() {
        this(QueryConfig.fromEnvironment(System.getenv()), true);
    }

    /** SDK clients built from {@code config} (region, endpoints, path style): for a local runner. */
    public QueryHandler(QueryConfig config) {
        this(config, false);
    }

    private QueryHandler(QueryConfig config, boolean primeSnapshots) {
        this(config, SdkClients.create(config, System.getenv()),
                primeSnapshots ? SnapshotPriming.register(new Priming(config)::prime) : null);
    }

    private QueryHandler(QueryConfig config, SdkClients.Clients clients, SnapshotPriming priming) {
        this(api(config, clients.dynamoDb(), clients.s3(), clients.presigner()), priming);
    }

    /** The given SDK clients, e.g. clients of emulators in tests. */
    public QueryHandler(QueryConfig config, DynamoDbClient dynamoDb, S3Client s3, S3Presigner presigner) {
        this(api(config, dynamoDb, s3, presigner));
    }

    public QueryHandler(QueryApi api) {
        this(api, null);
    }

    private QueryHandler(QueryApi api, SnapshotPriming priming) {
        this.api = api;
        this.priming = priming;
    }

    private static QueryApi api(QueryConfig config, DynamoDbClient dynamoDb, S3Client s3, S3Presigner presigner) {
        return new QueryApi(config,
                new DynamoRecordsTable(dynamoDb, config.recordsTable()),
                config.latestTable() == null ? null : new DynamoLatestTable(dynamoDb, config.latestTable()),
                new S3FileStore(s3, presigner),
                Clock.systemUTC());
    }

    /** A GET as API Gateway's HTTP API (payload 2.0) delivers it; {@code rawQuery} may be null. */
    static APIGatewayV2HTTPEvent get(String rawPath, String rawQuery) {
        APIGatewayV2HTTPEvent.RequestContext.Http http = new APIGatewayV2HTTPEvent.RequestContext.Http();
        http.setMethod("GET");
        http.setPath(rawPath);
        APIGatewayV2HTTPEvent.RequestContext context = new APIGatewayV2HTTPEvent.RequestContext();
        context.setHttp(http);
        context.setStage("$default");
        APIGatewayV2HTTPEvent event = new APIGatewayV2HTTPEvent();
        event.setVersion("2.0");
        event.setRawPath(rawPath);
        event.setRawQueryString(rawQuery);
        event.setRequestContext(context);
        return event;
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
