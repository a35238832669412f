package datalake.query;

import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;
import static datalake.query.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import datalake.dynamodb.RecordItems;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.records.Metadata;
import datalake.records.Record;
import datalake.records.RecordFactory;
import datalake.records.ShardMap;
import datalake.records.TimeBuckets;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A WHAT sharded into 4 from its third day on, on dynalite, read through {@link QueryHandler} as
 * deployed (the shard map read from the records table): time queries with and without a WHERE over a range
 * that crosses the first sharded day (every file once, in the unsharded order, across {@code next} links),
 * latest (from the latest table and from the day buckets), work_id, coverage and feeds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(EmulatorsExtension.class)
class ShardedQueryIT {
    static final Emulators AWS = Emulators.shared();
    private static final long HOUR = 3_600_000L;
    private static final long FIRST_SHARDED_DAY = TimeBuckets.bucketOf(T0) + 2;
    private static final List<String> WHERES = List.of("web-1", "web-2", "web-3", "db-1", "db-2", "edge");

    private QueryHarness tables;
    private final List<Metadata> files = new ArrayList<>();
    private final List<Record> records = new ArrayList<>();

    @BeforeAll
    void writeAShardedWhat() {
        tables = QueryHarness.create(AWS, "sharded-it");
        ShardMap map = ShardMap.EMPTY.with("hot", new ShardMap.Entry(FIRST_SHARDED_DAY, 4));
        tables.writeShardMap(map);
        // five days of files from six hosts, one every 29 minutes in turn, some spanning into the next day
        // (across the first sharded day too), a few with a work_id
        for (int i = 0; i < 5 * 24 * 60 / 29; i++) {
            String where = WHERES.get(i % WHERES.size());
            long start = T0 + i * 29L * 60_000L;
            Long end = i % 7 == 0 ? start + DAY / 2 : null;
            files.add(file(String.format("f%03d", i), "hot", where, start, end, i % 10 == 0 ? "job-1" : null));
        }
        records.addAll(tables.write(files, new RecordFactory(30, null, () -> map)));
        // the newest file of each WHERE in the latest table, as the ingester leaves it
        Map<String, Record> newest = new HashMap<>();
        for (Record record : records) {
            newest.merge(record.metadata().where(), record, (a, b) -> a.isNewerThan(b) ? a : b);
        }
        newest.values().forEach(tables::writeLatest);
    }

    private JsonNode get(QueryHandler handler, String path, String query) {
        APIGatewayV2HTTPResponse response = handler.handleRequest(Events.get(path, query), Events.QUIET);
        assertEquals(200, response.getStatusCode(), response.getBody());
        return Events.body(response);
    }

    /** Follows next as the client does; the ids in the order they came. */
    private List<String> ids(String query) {
        QueryHandler handler = tables.handler(true);
        List<String> ids = new ArrayList<>();
        JsonNode page = get(handler, "/v0/archive/files/", query);
        while (true) {
            page.path("records").forEach(r -> ids.add(r.path("metadata").path("id").asText()));
            if (page.path("next").isNull()) {
                return ids;
            }
            URI next = URI.create(page.path("next").asText());
            page = get(handler, next.getRawPath(), next.getRawQuery());
        }
    }

    /** The ids an unsharded table gives, in its order: by first common bucket, then range key. */
    private List<String> expected(long start, long end, String where) {
        return files.stream()
                .filter(m -> TestFiles.intersects(m, start, end) && (where == null || where.equals(m.where())))
                .sorted(Comparator.comparingLong((Metadata m) -> Math.max(TimeBuckets.bucketOf(m.start()),
                        TimeBuckets.bucketOf(start))).thenComparing(m -> m.where() + ":" + m.id()))
                .map(Metadata::id).toList();
    }

    @Test
    void theDaysFromTheFirstEntryOnAreWrittenUnderTheirShardsAndTheDaysBeforeUnderThePlainKey() {
        long sharded = records.stream().filter(r -> r.timeIndexKey().sharded()).count();
        assertTrue(sharded > 50, "three days of five are sharded: " + sharded);
        for (Record record : records) {
            assertEquals(record.bucket() >= FIRST_SHARDED_DAY, record.timeIndexKey().sharded(), record.toString());
        }
        assertEquals(4, records.stream().filter(r -> r.timeIndexKey().sharded())
                .map(r -> r.timeIndexKey().shard()).distinct().count(), "the six WHEREs fill all four shards");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "web-1", "db-2", "edge"})
    void aTimeQueryAcrossTheFirstShardedDayReturnsEveryFileOnceInTheUnshardedOrder(String where) {
        long start = T0 + 5 * HOUR;
        long end = T0 + 4 * DAY + 3 * HOUR;

        List<String> got = ids("what=hot&start=" + start + "&end=" + end + (where.isEmpty() ? "" : "&where=" + where));

        List<String> want = expected(start, end, where.isEmpty() ? null : where);
        assertTrue(want.size() > (where.isEmpty() ? 100 : 20), "pages of 100 cross days and shards");
        assertEquals(want, got);
    }

    @Test
    void latestFindsTheNewestFileFromTheLatestTableAndFromTheShardedDays() {
        Metadata newest = files.stream().filter(m -> m.where().equals("db-1"))
                .max(Comparator.comparingLong(Metadata::start)).orElseThrow();

        JsonNode fromTable = get(tables.handler(true), "/v0/archive/latest/hot/db-1", "lookback=3650");
        JsonNode fromDays = get(tables.handler(false), "/v0/archive/latest/hot/db-1", "lookback=3650");

        assertEquals(newest.id(), fromTable.path("metadata").path("id").asText());
        assertEquals(newest.id(), fromDays.path("metadata").path("id").asText());
    }

    @Test
    void aWorkIdQueryFindsTheFilesOfEveryDayOnce() {
        List<String> got = ids("what=hot&work_id=job-1");

        List<String> want = files.stream().filter(m -> "job-1".equals(m.workId())).map(Metadata::id).sorted().toList();
        assertEquals(want, got.stream().sorted().toList());
    }

    @Test
    void coverageCountsTheShardedDaysAsTheUnshardedOnes() {
        JsonNode coverage = get(tables.handler(true), "/v0/archive/coverage/",
                "what=hot&start=" + T0 + "&end=" + (T0 + 5 * DAY - 1));

        List<Long> got = new ArrayList<>();
        coverage.path("bins").forEach(bin -> got.add(bin.path("files").asLong()));
        List<Long> want = new ArrayList<>();
        for (int day = 0; day < 5; day++) {
            long from = T0 + day * DAY;
            want.add(files.stream().filter(m -> TestFiles.intersects(m, from, from + DAY - 1)).count());
        }
        assertEquals(want, got);
    }

    @Test
    void feedsListTheShardedWhatsLatestEntries() {
        JsonNode feeds = get(tables.handler(true), "/v0/archive/feeds/", "what=hot");

        assertEquals(WHERES.size(), feeds.path("feeds").size());
        feeds.path("feeds").forEach(feed -> assertEquals("hot", feed.path("what").asText()));
        assertTrue(records.stream().anyMatch(r ->
                RecordItems.toLatestItem(r).get(RecordItems.TIME_INDEX_KEY).s().contains("#")));
    }
}
