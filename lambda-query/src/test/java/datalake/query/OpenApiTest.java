package datalake.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** docs/openapi.yaml and the routes of {@link Route} describe the same API. */
class OpenApiTest {
    private static final Set<String> HTTP_METHODS = Set.of("get", "put", "post", "delete", "options", "head", "patch", "trace");

    private static JsonNode document() throws Exception {
        Path path = Path.of("..", "docs", "openapi.yaml");
        assertTrue(Files.isRegularFile(path), "docs/openapi.yaml exists (tests run in lambda-query/)");
        return new ObjectMapper(new YAMLFactory()).readTree(path.toFile());
    }

    @Test
    void everyDocumentedOperationIsRoutedAndEveryRouteDocumented() throws Exception {
        Set<String> documented = new TreeSet<>();
        for (Map.Entry<String, JsonNode> path : document().path("paths").properties()) {
            for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
                if (HTTP_METHODS.contains(operation.getKey())) {
                    documented.add(operation.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey());
                }
            }
        }
        Set<String> routed = new TreeSet<>();
        for (Route route : Route.values()) {
            routed.add(Route.METHOD + " " + route.template());
        }

        assertEquals(routed, documented);
    }

    @Test
    void documentedPathsMatchTheirRoutesWithSampleParameters() throws Exception {
        document().path("paths").fieldNames().forEachRemaining(template -> {
            String sample = template.replaceAll("\\{[^}]+}", "sample");
            assertTrue(Route.match(sample).map(m -> m.route().template().equals(template)).orElse(false),
                    template + " routes to itself");
        });
    }

    @Test
    void everyErrorCodeIsDocumented() throws Exception {
        Set<String> documented = new TreeSet<>();
        document().path("components").path("schemas").path("Error").path("properties").path("code").path("enum")
                .forEach(code -> documented.add(code.asText()));
        Set<String> declared = new TreeSet<>();
        for (java.lang.reflect.Field field : ErrorCodes.class.getFields()) {
            declared.add((String) field.get(null));
        }

        assertEquals(declared, documented);
    }
}
