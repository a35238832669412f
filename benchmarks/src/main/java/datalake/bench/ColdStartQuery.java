package datalake.bench;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import datalake.query.QueryHandler;

/** The child JVM of {@link ColdStartBenchmark} for the query function; see {@link ColdStartIngester}. */
public final class ColdStartQuery {
    private ColdStartQuery() {
    }

    /**
     * Builds the handler, invokes it once, and prints the lines the parent times.
     *
     * @param args the raw path and the raw query string of one GET
     */
    public static void main(String[] args) throws Exception {
        QueryHandler handler = new QueryHandler();
        ColdStartOutput.line("ready");
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
