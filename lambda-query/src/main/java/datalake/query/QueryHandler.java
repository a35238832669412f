package datalake.query;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import datalake.lambda.Environment;
import datalake.lambda.JsonLog;
import datalake.lambda.SdkClientFactory;
import datalake.lambda.SnapshotPriming;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The query Lambda: API Gateway HTTP API (payload format 2.0) in, the datalake v0 HTTP API out.
 * Everything is built once, in the constructor; a request is one call to {@link QueryApi} and one log
 * line (method, path, status, duration; never the query string, whose values are the caller's).
 */
public final class QueryHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {
    private final QueryApi api;
    /** Held here: CRaC keeps only weak references to the resources registered with it. */
    @SuppressWarnings("UnusedVariable") // never read: only holds a strong reference for CRaC
    private final SnapshotPriming priming;

    /**
     * The Lambda runtime's constructor: configuration from the environment (docs/DESIGN.md,
     * "Configuration"), SDK clients from lambda-support's factory, and SnapStart priming registered for
     * the snapshot (a no-op on a JVM without CRaC).
     */
    public QueryHandler() {
        this(Environment.system());
    }

    private QueryHandler(Environment env) {
        this(QueryConfig.from(env), SdkClientFactory.forFunction(env, QueryClients.CONCURRENT_CALLS));
    }

    private QueryHandler(QueryConfig config, SdkClientFactory clients) {
        this(QueryApi.forAws(config, QueryClients.from(clients, config)).build(),
                SnapshotPriming.register(QueryPriming.of(config, status -> { }), config.region()));
    }

    /** The API on the given SDK clients ({@link QueryApi#forAws}), e.g. clients of emulators in tests and the local runner. */
    public QueryHandler(QueryConfig config, DynamoDbClient dynamoDb, S3Client s3, S3Presigner presigner) {
        this(QueryApi.forAws(config, new QueryClients(dynamoDb, s3, presigner)).build());
    }

    /** An API built with {@link QueryApi#forAws}; the handler writes its request lines to the API's log. */
    public QueryHandler(QueryApi api) {
        this(api, null);
    }

    private QueryHandler(QueryApi api, SnapshotPriming priming) {
        this.api = api;
        this.priming = priming;
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
        long millis = (System.nanoTime() - started) / 1_000_000;
        int status = response.getStatusCode();
        APIGatewayV2HTTPEvent.RequestContext request = event.getRequestContext();
        String method = request != null && request.getHttp() != null ? request.getHttp().getMethod() : null;
        api.log().line(status >= 500 ? JsonLog.Level.ERROR : JsonLog.Level.INFO, "request", g -> {
            JsonLog.field(g, "requestId", context == null ? null : context.getAwsRequestId());
            g.writeStringField("method", JsonLog.shorten(method == null ? "?" : method));
            g.writeStringField("path", JsonLog.shorten(event.getRawPath() == null ? "" : event.getRawPath()));
            g.writeNumberField("status", status);
            g.writeNumberField("duration_ms", millis);
        });
        return response;
    }
}
