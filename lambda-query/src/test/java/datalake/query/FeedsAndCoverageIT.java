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
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The feeds and coverage routes through {@link QueryHandler} on dynalite: the latest table's
 * Scan paged and filtered, and coverage read from the day buckets of the records table.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(EmulatorsExtension.class)
class FeedsAndCoverageIT {
    static final Emulators AWS = Emulators.shared();
    private static final long HOUR = 3_600_000L;

    private QueryHarness tables;
    private QueryHandler handler;

    @BeforeAll
    void writeFeedsAndFiles() {
        tables = QueryHarness.create(AWS, "feeds-it");
        handler = tables.handler(true);
        RecordFactory factory = new RecordFactory();
        for (int i = 0; i < 230; i++) {
            Metadata m = file("feed-" + i, i % 3 == 0 ? "nginx" : "syslog", String.format("host-%03d", i), T0 + i * HOUR, null);
            tables.writeLatest(factory.records(m, "s3://" + tables.stack().bucket() + "/" + m.id() + "/data", 1, 10).get(0));
        }
        // two days of hourly sensor files with hours 30 to 34 missing, and one file over both days
        List<Metadata> files = new ArrayList<>();
        for (int h = 0; h < 48; h++) {
            if (h < 30 || h > 34) {
                files.add(file("sensor-" + h, "sensor", "probe", T0 + h * HOUR, T0 + (h + 1) * HOUR - 1));
            }
        }
        files.add(file("sensor-daily", "sensor", "daily", T0 + 6 * HOUR, T0 + DAY + 6 * HOUR));
        tables.write(files);
    }

    private JsonNode get(String path, String query) {
        APIGatewayV2HTTPResponse response = handler.handleRequest(Events.get(path, query), Events.QUIET);
        assertEquals(200, response.getStatusCode(), response.getBody());
        return Events.body(response);
    }

    private List<String> allFeeds(String query) {
        List<String> seen = new ArrayList<>();
        JsonNode page = get("/v0/archive/feeds/", query);
        while (true) {
            assertTrue(page.path("feeds").size() <= 100);
            page.path("feeds").forEach(f -> seen.add(f.path("what").asText() + ":" + f.path("where").asText()));
            if (page.path("next").isNull()) {
                return seen;
            }
            URI next = URI.create(page.path("next").asText());
            page = get(next.getRawPath(), next.getRawQuery());
        }
    }

    @Test
    void feedsPageThroughTheLatestTableOnce() {
        List<String> all = allFeeds("");
        List<String> nginx = allFeeds("what=nginx");

        assertEquals(230, all.size());
        assertEquals(230, new HashSet<>(all).size());
        assertEquals(77, nginx.size());
        assertEquals(77, new HashSet<>(nginx).size());
        assertTrue(nginx.stream().allMatch(f -> f.startsWith("nginx:")));
    }

    @Test
    void hourlyCoverageShowsTheMissingHours() {
        JsonNode coverage = get("/v0/archive/coverage/", "what=sensor&where=probe&start=" + T0 + "&end="
                + (T0 + 2 * DAY - 1) + "&step=hour");

        List<Integer> empty = new ArrayList<>();
        for (int i = 0; i < coverage.path("bins").size(); i++) {
            if (coverage.path("bins").get(i).path("files").asLong() == 0) {
                empty.add(i);
            }
        }
        assertEquals(48, coverage.path("bins").size());
        assertEquals(List.of(30, 31, 32, 33, 34), empty);
    }

    @Test
    void dailyCoverageCountsAFileInEveryDayItTouches() {
        JsonNode coverage = get("/v0/archive/coverage/", "what=sensor&start=" + T0 + "&end=" + (T0 + 3 * DAY - 1));

        List<Long> files = new ArrayList<>();
        coverage.path("bins").forEach(bin -> files.add(bin.path("files").asLong()));
        assertEquals(List.of(24L + 1, 24L - 5 + 1, 0L), files);
        assertEquals(T0 + DAY, coverage.path("bins").get(1).path("start").asLong());
    }
}
