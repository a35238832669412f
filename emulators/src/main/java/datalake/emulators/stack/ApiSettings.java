package datalake.emulators.stack;

import java.util.List;
import java.util.Optional;

/**
 * An HTTP API of the template (AWS::ApiGatewayV2::Api) as the local API serves it: its routes and how
 * each is authorised.
 *
 * @param logicalId the API's logical id
 * @param routes    its routes
 */
public record ApiSettings(String logicalId, List<Route> routes) {
    public ApiSettings {
        routes = List.copyOf(routes);
    }

    /**
     * One route.
     *
     * @param routeKey      "$default", or "GET /v0/archive/files/"
     * @param function      the logical id of the function its integration invokes
     * @param authorization NONE, AWS_IAM or JWT
     * @param jwtIssuer     with JWT, the issuer
     * @param jwtAudience   with JWT, the audience
     */
    public record Route(String routeKey, String function, String authorization, Optional<String> jwtIssuer,
            List<String> jwtAudience) {
        public Route {
            jwtAudience = List.copyOf(jwtAudience);
        }
    }

    /** The route a request takes, as API Gateway chooses: the exact method and path, else $default. */
    public Optional<Route> route(String method, String path) {
        Optional<Route> exact = routes.stream().filter(r -> r.routeKey().equals(method + " " + path)
                || r.routeKey().equals("ANY " + path)).findFirst();
        return exact.isPresent() ? exact : routes.stream().filter(r -> r.routeKey().equals("$default")).findFirst();
    }
}
