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
import datalake.records.Times;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Paging a time query over more than a thousand files in 30 day buckets, 100 a page; and ranges before
 * 1970 and before 1973, whose next links must read back as the same query.
 */
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

    /**
     * A range before 1973 cannot be asked in milliseconds (a number up to 1e11 is seconds), so the client
     * asks in ISO-8601; its next links, in milliseconds before issue 12, were then another query on page 2
     * (InvalidCursor) or no time at all (InvalidTime).
     */
    @ParameterizedTest
    @CsvSource({
            "1969-12-28T00:00:00Z, 1970-01-03T23:59:59.999Z",  // across the epoch: negative and positive ms
            "1969-06-01T00:00:00Z, 1969-06-05T12:00:00Z",      // all negative
            "1972-02-27T06:00:00Z, 1972-03-02T18:00:00Z"})     // positive, but at most 1e11 ms
    void rangesBefore1970AndBefore1973PageThroughTheirNextLinks(String from, String to) {
        // given 250 files spread over the range, some spanning two or three buckets, and 10 outside it
        long start = Times.fromIso(from);
        long end = Times.fromIso(to);
        QueryHarness tables = QueryHarness.create(AWS, "pagination-1970-it");
        List<Metadata> files = new ArrayList<>();
        for (int n = 0; n < 250; n++) {
            long fileStart = start + n * ((end - start) / 250);
            Long fileEnd = n % 5 == 0 ? null : fileStart + (n % 3) * DAY + 1;
            files.add(file(String.format("old-%03d", n), "syslog", n % 2 == 0 ? "web" : "db", fileStart, fileEnd));
        }
        List<Metadata> outside = new ArrayList<>();
        for (int n = 0; n < 10; n++) {
            outside.add(file("before-" + n, "syslog", "web", start - 3 * DAY + n, start - 1));
            outside.add(file("after-" + n, "syslog", "web", end + 1 + n, null));
        }
        tables.write(files);
        tables.write(outside);
        QueryHandler handler = tables.handler(false);

        // when a client pages through the range, asking in ISO-8601 and following next
        List<String> ids = new ArrayList<>();
        int pages = 0;
        APIGatewayV2HTTPResponse response = handler.handleRequest(Events.get("/v0/archive/files/",
                "what=syslog&start=" + from + "&end=" + to), Events.QUIET);
        while (true) {
            assertEquals(200, response.getStatusCode(), "page " + (pages + 1) + ": " + response.getBody());
            JsonNode page = Events.body(response);
            pages++;
            page.path("records").forEach(r -> ids.add(r.path("metadata").path("id").asText()));
            if (page.path("next").isNull()) {
                break;
            }
            URI next = URI.create(page.path("next").asText());
            response = handler.handleRequest(Events.get(next.getRawPath(), next.getRawQuery()), Events.QUIET);
        }

        // then the 250 came once each, over three pages, and nothing from outside
        assertEquals(250, ids.size());
        assertEquals(files.stream().map(Metadata::id).collect(Collectors.toSet()), new HashSet<>(ids));
        assertEquals(3, pages);
    }

    @Test
    void aWheresPagesReadItsItemsAloneFromDynamoDb() {
        // given a day of 150 files at each of three WHEREs
        QueryHarness tables = QueryHarness.create(AWS, "pagination-where-it");
        List<Metadata> files = new ArrayList<>();
        for (String where : List.of("app", "db", "web")) {
            for (int n = 0; n < 150; n++) {
                files.add(file(String.format("%s-%03d", where, n), "syslog", where, T0 + n * (DAY / 150), null));
            }
        }
        tables.write(files);
        ReadTally tally = new ReadTally();
        try (DynamoDbClient dynamoDb = tables.queryAws().dynamoDbClients().build(DynamoDbClient.builder(),
                c -> c.addExecutionInterceptor(tally))) {
            QueryHandler handler = new QueryHandler(tables.config(false), dynamoDb, tables.queryAws().s3(),
                    tables.presigner());

            // when a client pages through the middle WHERE's day, DynamoDB counting the items it reads
            List<String> ids = new ArrayList<>();
            APIGatewayV2HTTPResponse response = handler.handleRequest(Events.get("/v0/archive/files/",
                    "what=syslog&where=db&start=" + T0 + "&end=" + (T0 + DAY - 1)), Events.QUIET);
            while (true) {
                assertEquals(200, response.getStatusCode(), response.getBody());
                JsonNode page = Events.body(response);
                page.path("records").forEach(r -> ids.add(r.path("metadata").path("id").asText()));
                if (page.path("next").isNull()) {
                    break;
                }
                URI next = URI.create(page.path("next").asText());
                response = handler.handleRequest(Events.get(next.getRawPath(), next.getRawQuery()), Events.QUIET);
            }

            // then its 150 files came, and the Queries read them and the first page's extra record alone:
            // 151 items (the second page read on into web's files up to its limit before: 202)
            assertEquals(150, ids.size());
            assertTrue(ids.stream().allMatch(id -> id.startsWith("db-")), ids.toString());
            assertEquals(151, tally.items(), tally.queries() + " Queries");
        }
    }
}
