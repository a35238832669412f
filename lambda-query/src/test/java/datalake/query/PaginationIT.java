package datalake.query;

import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;
import static datalake.query.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.records.Metadata;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Paging a time query over more than a thousand files in 30 day buckets, 100 a page. */
@ExtendWith(EmulatorsExtension.class)
class PaginationIT {
        static final Emulators AWS = Emulators.shared();

    @Test
    void everyFileExactlyOnceOverThirtyBucketsInPagesOfAHundred() {
        // given 1,260 files over 30 days: 42 a day, of which some span 2 to 6 buckets and some are instants
        QueryHarness tables = QueryHarness.create(AWS, "pagination-it");
        List<Metadata> files = new ArrayList<>();
        for (int day = 0; day < 30; day++) {
            for (int n = 0; n < 42; n++) {
                long start = T0 + day * DAY + n * (DAY / 42);
                Long end = switch (n % 6) {
                    case 0 -> null;
                    case 1 -> start + (1 + n % 5) * DAY;
                    default -> start + DAY / 100;
                };
                files.add(file(String.format("d%02d-n%02d", day, n), "syslog", n % 2 == 0 ? "web" : "db", start, end));
            }
        }
        tables.write(files);
        QueryHandler handler = tables.handler(false);

        // when a client pages through the 30 days
        List<String> ids = new ArrayList<>();
        List<Integer> pageSizes = new ArrayList<>();
        APIGatewayV2HTTPResponse response = handler.handleRequest(Events.get("/v0/archive/files/",
                "what=syslog&start=" + T0 + "&end=" + (T0 + 30 * DAY - 1)), Events.QUIET);
        while (true) {
            assertEquals(200, response.getStatusCode(), response.getBody());
            JsonNode page = Events.body(response);
            pageSizes.add(page.path("records").size());
            page.path("records").forEach(r -> ids.add(r.path("metadata").path("id").asText()));
            if (page.path("next").isNull()) {
                break;
            }
            URI next = URI.create(page.path("next").asText());
            response = handler.handleRequest(Events.get(next.getRawPath(), next.getRawQuery()), Events.QUIET);
        }

        // then each of the 1,260 came once, in full pages of 100 but the last
        Map<String, Integer> seen = new HashMap<>();
        ids.forEach(id -> seen.merge(id, 1, Integer::sum));
        Set<String> duplicates = seen.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey)
                .collect(Collectors.toSet());
        assertEquals(Set.of(), duplicates, "no duplicate");
        assertEquals(files.stream().map(Metadata::id).collect(Collectors.toSet()), seen.keySet(), "no miss");
        assertEquals(1260, ids.size());
        assertEquals(13, pageSizes.size());
        assertTrue(pageSizes.subList(0, 12).stream().allMatch(n -> n == 100), pageSizes.toString());
        assertEquals(60, pageSizes.get(12));
    }
}
