package datalake.emulators.stack;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import java.util.Map;
import java.util.Optional;

/**
 * The routes of the template's HTTP API ({@link ApiSettings}), each to the handler of its function: a
 * request takes the route API Gateway would choose (its route key is set in the event), and a request no
 * route takes is answered 404 {@code {"message":"Not Found"}}, as API Gateway answers.
 */
public final class ApiRouter implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {
    private final ApiSettings api;
    private final Map<String, RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse>> functions;

    /**
     * @param api       the API's routes
     * @param functions the handler of each function a route integrates with, by logical id
     */
    public ApiRouter(ApiSettings api,
            Map<String, RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse>> functions) {
        this.api = api;
        this.functions = Map.copyOf(functions);
        for (ApiSettings.Route route : api.routes()) {
            if (!functions.containsKey(route.function())) {
                throw new IllegalArgumentException("the route " + route.routeKey() + " integrates with "
                        + route.function() + ", which has no handler here.");
            }
        }
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        String method = event.getRequestContext() == null || event.getRequestContext().getHttp() == null
                ? "GET" : event.getRequestContext().getHttp().getMethod();
        Optional<ApiSettings.Route> route = api.route(method, event.getRawPath());
        if (route.isEmpty()) {
            return APIGatewayV2HTTPResponse.builder().withStatusCode(404)
                    .withHeaders(Map.of("content-type", "application/json"))
                    .withBody("{\"message\":\"Not Found\"}").build();
        }
        event.setRouteKey(route.get().routeKey());
        return functions.get(route.get().function()).handleRequest(event, context);
    }
}
