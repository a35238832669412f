package datalake.bench;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import datalake.lambda.Environment;
import datalake.lambda.SnapshotPriming;
import datalake.query.QueryConfig;
import datalake.query.QueryHandler;
import datalake.query.QueryPriming;
import software.amazon.awssdk.regions.Region;

/** The child JVM of {@link ColdStartBenchmark} for the query function; see {@link ColdStartIngester}. */
public final class ColdStartQuery {
    private ColdStartQuery() {
    }

    /**
     * Builds the handler, invokes it once, and prints the lines the parent times.
     *
     * @param args the raw path and the raw query string of one GET, then {@code primed} to run the priming first
     */
    public static void main(String[] args) throws Exception {
        QueryHandler handler = new QueryHandler();
        ColdStartOutput.line("ready");
        if (args.length > 2 && args[2].equals("primed")) {
            QueryConfig config = QueryConfig.from(Environment.system());
            int calls = SnapshotPriming.prime(QueryPriming.of(config, status -> { }), Region.of(config.region()));
            ColdStartOutput.line("primed calls=" + calls);
        }
        APIGatewayV2HTTPEvent.RequestContext.Http http = new APIGatewayV2HTTPEvent.RequestContext.Http();
        http.setMethod("GET");
        http.setPath(args[0]);
        APIGatewayV2HTTPEvent.RequestContext context = new APIGatewayV2HTTPEvent.RequestContext();
        context.setHttp(http);
        context.setStage("$default");
        APIGatewayV2HTTPEvent event = new APIGatewayV2HTTPEvent();
        event.setVersion("2.0");
        event.setRawPath(args[0]);
        event.setRawQueryString(args[1]);
        event.setRequestContext(context);
        APIGatewayV2HTTPResponse response = handler.handleRequest(event, null);
        ColdStartOutput.line("responded status=" + response.getStatusCode() + " bytes=" + response.getBody().length());
        ColdStartOutput.peakRss();
    }
}
