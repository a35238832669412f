package datalake.bench;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import java.util.Map;

/** The event API Gateway sends the query function for {@code GET /v0/archive/files/?<query>}. */
final class FilesQuery {
    private FilesQuery() {
    }

    static APIGatewayV2HTTPEvent event(String rawQuery) {
        return APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0")
                .withRouteKey("$default")
                .withRawPath("/v0/archive/files/")
                .withRawQueryString(rawQuery)
                .withHeaders(Map.of("host", "localhost"))
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withStage("$default")
                        .withDomainName("localhost")
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder()
                                .withMethod("GET").withPath("/v0/archive/files/").build())
                        .build())
                .build();
    }
}
