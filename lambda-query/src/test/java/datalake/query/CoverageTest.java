package datalake.query;

import static datalake.query.Events.body;
import static datalake.query.Events.get;
import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;
import static datalake.query.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import datalake.records.Metadata;
import datalake.records.ShardMap;
import datalake.records.TimeBuckets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code /v0/archive/coverage/}: bins, gaps, files counted in every bin they touch, and the 400s. */
class CoverageTest {
    private static final long HOUR = 3_600_000L;
    private final InMemoryRecordsTable table = new InMemoryRecordsTable();
    private final QueryApi api = QueryApi.builder().config(QueryConfig.of("records", "lake")).records(table)
            .files(new FakeObjectStore()).clock(Clock.fixed(Instant.ofEpochMilli(T0 + 40 * DAY), ZoneOffset.UTC)).build();

    private JsonNode coverage(String query) {
        APIGatewayV2HTTPResponse response = api.handle(get("/v0/archive/coverage/", query));
        assertEquals(200, response.getStatusCode(), response.getBody());
        return body(response);
    }

    private static List<Long> field(JsonNode coverage, String name) {
        List<Long> values = new ArrayList<>();
        coverage.path("bins").forEach(bin -> values.add(bin.path(name).asLong()));
        return values;
    }

    @Test
    void hourBinsShowAGapWhereNoFileArrived() {
        // given hourly files from 00:00 to 06:00, but none for 03:00
        for (int h = 0; h < 6; h++) {
            if (h != 3) {
                table.put(TestFiles.records(file("h" + h, "sensor", "probe", T0 + h * HOUR, T0 + h * HOUR + HOUR - 1)));
            }
        }

        // when
        JsonNode coverage = coverage("what=sensor&start=" + T0 + "&end=" + (T0 + 6 * HOUR - 1) + "&step=hour");

        // then
        assertEquals("hour", coverage.path("step").asText());
        assertEquals(List.of(T0, T0 + HOUR, T0 + 2 * HOUR, T0 + 3 * HOUR, T0 + 4 * HOUR, T0 + 5 * HOUR),
                field(coverage, "start"));
        assertEquals(List.of(1L, 1L, 1L, 0L, 1L, 1L), field(coverage, "files"));
        assertEquals(List.of(42L, 42L, 42L, 0L, 42L, 42L), field(coverage, "bytes"));
    }

    @Test
    void aShardedDayIsCountedKeyByKeyWithOneQueryEach() {
        // given 4,000 files of one day over 40 WHEREs, the WHAT sharded into 16 from that day on
        ShardMap sixteen = ShardMap.EMPTY.with("w", new ShardMap.Entry(TimeBuckets.bucketOf(T0), 16));
        List<Metadata> files = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            files.add(file("f" + i, "w", "host-" + i % 40, T0 + i * (DAY / 4000), null));
        }
        InMemoryRecordsTable sharded = new InMemoryRecordsTable().put(TestFiles.records(files, sixteen));
        QueryApi shardedApi = QueryApi.builder().config(QueryConfig.of("records", "lake")).records(sharded)
                .shards(() -> sixteen).files(new FakeObjectStore())
                .clock(Clock.fixed(Instant.ofEpochMilli(T0 + 40 * DAY), ZoneOffset.UTC)).build();

        // when the day is counted
        APIGatewayV2HTTPResponse response = shardedApi.handle(get("/v0/archive/coverage/",
                "what=w&start=" + T0 + "&end=" + (T0 + DAY - 1) + "&step=day"));

        // then every file once, from one Query a shard (fewer than 1,000 items each) and one of the empty
        // plain key (the day's layout before the change), nothing read twice
        assertEquals(200, response.getStatusCode(), response.getBody());
        assertEquals(List.of(4000L), field(body(response), "files"));
        assertEquals(16 + 1, sharded.reads());
        assertEquals(4000, sharded.itemsRead());
    }

    @Test
    void aFileCountsOnceInEveryBinItTouchesThoughItHasARecordPerDayBucket() {
        // given a file over three days (three records), an instant, and a file of another where
        table.put(TestFiles.records(file("long", "syslog", "web", T0 + 12 * HOUR, T0 + 2 * DAY + HOUR)));
        table.put(TestFiles.records(file("instant", "syslog", "web", T0 + DAY + 5, null)));
        table.put(TestFiles.records(file("other", "syslog", "db", T0 + DAY, T0 + DAY + 1)));

        // when
        JsonNode all = coverage("what=syslog&start=" + T0 + "&end=" + (T0 + 4 * DAY - 1));
        JsonNode web = coverage("what=syslog&where=web&start=" + T0 + "&end=" + (T0 + 4 * DAY - 1) + "&step=day");

        // then (day is the default step)
        assertEquals("day", all.path("step").asText());
        assertEquals(List.of(1L, 3L, 1L, 0L), field(all, "files"));
        assertEquals(List.of(1L, 2L, 1L, 0L), field(web, "files"));
        assertEquals(List.of(42L, 84L, 42L, 0L), field(web, "bytes"));
    }

    @Test
    void binsAreWholeUtcHoursFromTheOneHoldingStartToTheOneHoldingEnd() {
        // given a file that began before the range
        table.put(TestFiles.records(file("early", "syslog", "web", T0 - DAY, T0 + 90 * 60_000L)));

        // when the range starts and ends inside hours
        JsonNode coverage = coverage("what=syslog&start=" + (T0 + 30 * 60_000L) + "&end=" + (T0 + 150 * 60_000L)
                + "&step=HOUR");

        // then the file counts in the hours of the range it touches, not before
        assertEquals(List.of(T0, T0 + HOUR, T0 + 2 * HOUR), field(coverage, "start"));
        assertEquals(List.of(1L, 1L, 0L), field(coverage, "files"));
    }

    @Test
    void endMayBeNowTheRequestsTime() {
        long now = T0 + 40 * DAY;
        table.put(TestFiles.records(file("today", "sensor", "probe", now - HOUR, null)));
        table.put(TestFiles.records(file("ahead", "sensor", "probe", now + HOUR, null)));

        JsonNode coverage = coverage("what=sensor&start=" + (now - 2 * HOUR) + "&end=now&step=hour");

        assertEquals(List.of(now - 2 * HOUR, now - HOUR, now), field(coverage, "start"));
        assertEquals(List.of(0L, 1L, 0L), field(coverage, "files"));
    }

    @Test
    void theLongestRangesAreAllowed() {
        assertEquals(31 * 24 + 1, coverage("what=x&start=" + T0 + "&end=" + (T0 + 31 * DAY) + "&step=hour")
                .path("bins").size());
        assertEquals(367, coverage("what=x&start=" + T0 + "&end=" + (T0 + 366 * DAY)).path("bins").size());
    }

    @Test
    void aWhatThatCannotBeStoredHasEmptyBins() {
        JsonNode coverage = coverage("what=Not-A-Slug&start=" + T0 + "&end=" + (T0 + DAY));

        assertEquals(List.of(0L, 0L), field(coverage, "files"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "''                                                  | NoArgs",
        "start=1&end=2                                       | NoWhat",
        "what=x                                              | NoWorkInterval",
        "what=x&work_id=job                                  | InvalidWorkInterval",
        "what=x&start=5&end=1                                | InvalidWorkInterval",
        "what=x&start=yesterday&end=1                        | InvalidTime",
        "what=x&start=1704067200000&end=1704153600000&step=minute | InvalidStep",
        "what=x&start=1704067200000&end=1706745600001&step=hour   | RangeTooLong",
        "what=x&start=1704067200000&end=1735689600001              | RangeTooLong",
    })
    void badQueriesAre400WithTheirCode(String query, String code) {
        APIGatewayV2HTTPResponse response = api.handle(get("/v0/archive/coverage/", query));

        assertEquals(400, response.getStatusCode(), response.getBody());
        JsonNode error = body(response);
        assertEquals(code, error.path("code").asText());
        assertTrue(error.path("message").asText().endsWith("."), error.toString());
    }

    /** Coverage takes no work_id: no sentence offers one, but the one refusing it. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "''                              | Give query parameters: what, start and end.",
        "where=h                         | Give the what parameter.",
        "what=x                          | Give start and end.",
        "what=x&where=h&work_id=         | Give start and end.",
        "what=x&work_id=job              | Give start and end for coverage; it does not take work_id.",
        "what=x&work_id=job&start=1&end=2 | Give start and end for coverage; it does not take work_id.",
        "what=x&work_id=job&start=1      | Give start and end for coverage; it does not take work_id.",
        "what=x&start=1                  | Give start and end together.",
        "what=x&start=5&end=1            | Give a start that is not after end.",
    })
    void messagesSayWhatCoverageTakes(String query, String message) {
        APIGatewayV2HTTPResponse response = api.handle(get("/v0/archive/coverage/", query));

        assertEquals(400, response.getStatusCode(), response.getBody());
        assertEquals(message, body(response).path("message").asText());
    }
}
