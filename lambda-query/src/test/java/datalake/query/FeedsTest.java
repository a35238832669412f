package datalake.query;

import static datalake.query.Events.body;
import static datalake.query.Events.get;
import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;
import static datalake.query.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import datalake.records.Keys.TimeIndexKey;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code /v0/archive/feeds/}: every feed of the latest table once across pages, its age, and the errors. */
class FeedsTest {
    private static final long NOW = T0 + 40 * DAY;
    private final InMemoryLatestTable latest = new InMemoryLatestTable();
    private final InMemoryRecordsTable records = new InMemoryRecordsTable();
    private final QueryApi api = QueryApi.builder().config(QueryConfig.of("records", "lake"))
            .records(records).latest(latest).files(new FakeObjectStore())
            .clock(Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC)).build();

    private void feed(String what, String where, long start, Long end) {
        latest.put(TestFiles.records(file(what + "-" + where, what, where, start, end)).get(0));
    }

    private JsonNode feeds(String query) {
        APIGatewayV2HTTPResponse response = api.handle(get("/v0/archive/feeds/", query));
        assertEquals(200, response.getStatusCode(), response.getBody());
        return body(response);
    }

    /** Follows next links (as a client does: the path and query of the URL) and returns every feed seen. */
    private List<String> allPages(String query, List<Integer> pageSizes) {
        List<String> seen = new ArrayList<>();
        JsonNode page = feeds(query);
        while (true) {
            pageSizes.add(page.path("feeds").size());
            page.path("feeds").forEach(f -> seen.add(f.path("what").asText() + ":" + f.path("where").asText()));
            if (page.path("next").isNull()) {
                return seen;
            }
            URI next = URI.create(page.path("next").asText());
            assertTrue(next.toString().startsWith("https://abc123.execute-api.us-east-1.amazonaws.com/v0/archive/feeds/?"),
                    next.toString());
            page = feeds(next.getRawQuery());
        }
    }

    @Test
    void aFeedCarriesItsNewestFileAndTheAgeOfItsEnd() {
        feed("syslog", "web", NOW - 3 * DAY, NOW - 2 * DAY);
        feed("report", "host", NOW - DAY, null);
        feed("future", "clock", NOW + DAY, NOW + 2 * DAY);

        JsonNode page = feeds("");

        assertTrue(page.path("next").isNull());
        List<String> order = new ArrayList<>();
        page.path("feeds").forEach(f -> order.add(f.path("what").asText()));
        assertEquals(List.of("future", "report", "syslog"), order, "a page reads in what, where order");
        JsonNode syslog = page.path("feeds").get(2);
        assertEquals("web", syslog.path("where").asText());
        assertEquals(2 * DAY, syslog.path("age_ms").asLong());
        assertEquals("s3://bucket/syslog-web/data", syslog.path("latest").path("url").asText());
        assertEquals(NOW - 2 * DAY, syslog.path("latest").path("metadata").path("end").asLong());
        assertEquals(DAY, page.path("feeds").get(1).path("age_ms").asLong(), "an instant's age counts from its start");
        assertEquals(0, page.path("feeds").get(0).path("age_ms").asLong(), "data from the future is not negative age");
    }

    @Test
    void anEntryMoreThanADayAheadIsReplacedAsLatestReplacesIt() {
        // given a feed whose entry starts two days ahead (a producer's wrong clock) and whose file of yesterday
        // is in the records, and a feed with nothing but a file three days ahead
        feed("syslog", "web", NOW + 2 * DAY, null);
        records.put(TestFiles.records(file("yesterday", "syslog", "web", NOW - DAY, null)));
        feed("clock", "skewed", NOW + 3 * DAY, null);

        // when the feeds are listed, and the latest of each asked
        JsonNode page = feeds("");
        APIGatewayV2HTTPResponse latestOfWeb = api.handle(get("/v0/archive/latest/syslog/web", ""));
        APIGatewayV2HTTPResponse latestOfSkewed = api.handle(get("/v0/archive/latest/clock/skewed", ""));

        // then each feed has the newest file /latest answers, and its age; none answered, no feed
        assertEquals(1, page.path("feeds").size(), page.toString());
        JsonNode web = page.path("feeds").get(0);
        assertEquals("yesterday", web.path("latest").path("metadata").path("id").asText());
        assertEquals(body(latestOfWeb), web.path("latest"));
        assertEquals(DAY, web.path("age_ms").asLong());
        assertEquals(404, latestOfSkewed.getStatusCode());
    }

    @Test
    void thePagesEntriesAheadAreScannedConcurrentlyAFewAtATime() throws InterruptedException {
        // given six feeds whose entries start two days ahead, each with a file of yesterday, and a table whose
        // Queries wait (10 s at most) until those of two feeds are in flight at once
        FeedGate gate = new FeedGate(records);
        QueryApi gated = QueryApi.builder().config(QueryConfig.of("records", "lake"))
                .records(gate).latest(latest).files(new FakeObjectStore())
                .clock(Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC)).build();
        for (int i = 0; i < 6; i++) {
            feed("feed" + i, "web", NOW + 2 * DAY, null);
            records.put(TestFiles.records(file("yesterday" + i, "feed" + i, "web", NOW - DAY, null)));
        }

        // when the feeds are listed
        APIGatewayV2HTTPResponse response = gated.handle(get("/v0/archive/feeds/", ""));

        // then the feeds' scans overlapped, no more than the scan threads at a time, and each found its file
        assertFalse(gate.timedOut, "the scans of two feeds were never in flight together: they ran one after another");
        assertTrue(gate.maxFeeds >= 2 && gate.maxFeeds <= QueryApi.FEED_SCAN_THREADS,
                "feeds scanned at once: " + gate.maxFeeds);
        assertEquals(200, response.getStatusCode(), response.getBody());
        List<String> ids = new ArrayList<>();
        body(response).path("feeds").forEach(f -> ids.add(f.path("latest").path("metadata").path("id").asText()));
        assertEquals(List.of("yesterday0", "yesterday1", "yesterday2", "yesterday3", "yesterday4", "yesterday5"), ids);
    }

    /**
     * Records whose Queries each wait until Queries of two WHATs (feeds) are in flight together, or until
     * 10 seconds have passed: then {@link #timedOut} and no Query waits any more. {@link #maxFeeds} is the
     * most WHATs ever in flight together.
     */
    private static final class FeedGate implements RecordsTable {
        private final RecordsTable table;
        private final Map<String, Integer> inFlight = new HashMap<>();
        private final CountDownLatch two = new CountDownLatch(1);
        volatile boolean timedOut;
        volatile int maxFeeds;

        FeedGate(RecordsTable table) {
            this.table = table;
        }

        @Override
        public Slice queryKey(TimeIndexKey key, String rangePrefix, String after, int limit) {
            synchronized (inFlight) {
                inFlight.merge(key.what(), 1, Integer::sum);
                maxFeeds = Math.max(maxFeeds, inFlight.size());
                if (inFlight.size() >= 2) {
                    two.countDown();
                }
            }
            try {
                if (!timedOut && !two.await(10, TimeUnit.SECONDS)) {
                    timedOut = true;
                    two.countDown();
                }
                return table.queryKey(key, rangePrefix, after, limit);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } finally {
                synchronized (inFlight) {
                    inFlight.computeIfPresent(key.what(), (what, n) -> n == 1 ? null : n - 1);
                }
            }
        }

        @Override
        public Slice queryWorkId(String workId, String what, String rangePrefix, String after, int limit) {
            return table.queryWorkId(workId, what, rangePrefix, after, limit);
        }
    }

    @Test
    void pagesOfAHundredListEveryFeedOnce() {
        for (int i = 0; i < 250; i++) {
            feed(i % 2 == 0 ? "syslog" : "nginx", String.format("host-%03d", i), T0 + i, null);
        }
        List<Integer> sizes = new ArrayList<>();

        List<String> seen = allPages("", sizes);

        assertEquals(250, seen.size());
        assertEquals(250, new HashSet<>(seen).size());
        assertEquals(List.of(100, 100, 50), sizes);
    }

    @Test
    void whatKeepsOneWhatAcrossPages() {
        for (int i = 0; i < 250; i++) {
            feed(i % 2 == 0 ? "syslog" : "nginx", String.format("host-%03d", i), T0 + i, null);
        }
        List<Integer> sizes = new ArrayList<>();

        List<String> seen = allPages("what=nginx", sizes);

        assertEquals(125, seen.size());
        assertEquals(125, new HashSet<>(seen).size());
        assertTrue(seen.stream().allMatch(f -> f.startsWith("nginx:")), seen.toString());
        assertEquals(List.of(100, 25), sizes);
        assertEquals(Set.of(), new HashSet<>(allPages("what=Not-A-Slug", new ArrayList<>())));
    }

    @Test
    void aCursorIsBoundToItsWhatAndCannotBeEdited() {
        for (int i = 0; i < 150; i++) {
            feed("syslog", String.format("host-%03d", i), T0 + i, null);
        }
        String next = URI.create(feeds("what=syslog").path("next").asText()).getRawQuery();
        String cursor = next.substring(next.indexOf("cursor=") + "cursor=".length());

        APIGatewayV2HTTPResponse moved = api.handle(get("/v0/archive/feeds/", "what=nginx&cursor=" + cursor));
        APIGatewayV2HTTPResponse edited = api.handle(get("/v0/archive/feeds/", "what=syslog&cursor=x" + cursor));

        assertEquals(400, moved.getStatusCode());
        assertEquals("InvalidCursor", body(moved).path("code").asText());
        assertEquals(400, edited.getStatusCode());
        assertEquals("InvalidCursor", body(edited).path("code").asText());
    }

    @Test
    void withoutALatestTableFeedsAre404NoLatestTable() {
        QueryApi withoutLatest = QueryApi.builder().config(QueryConfig.of("records", "lake"))
                .records(new InMemoryRecordsTable()).files(new FakeObjectStore()).build();

        APIGatewayV2HTTPResponse response = withoutLatest.handle(get("/v0/archive/feeds/", ""));

        assertEquals(404, response.getStatusCode());
        assertEquals("NoLatestTable", body(response).path("code").asText());
        assertTrue(body(response).path("message").asText().endsWith("."));
    }
}
