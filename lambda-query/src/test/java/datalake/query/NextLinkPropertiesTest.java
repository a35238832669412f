package datalake.query;

import static datalake.query.TestFiles.DAY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import datalake.query.FileLayouts.FileSpec;
import datalake.query.FileLayouts.Window;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.Metadata;
import datalake.records.ShardMap;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Every matching file exactly once when a client follows the {@code next} URLs the API hands out,
 * for time ranges anywhere from 1965 to 1974: before 1970 (negative milliseconds) and before 1973
 * (milliseconds up to 100,000,000,000, which a number in a query reads as seconds), on unsharded and
 * sharded layouts (a window may cross the first sharded day). Each page is a new request built only from
 * the previous page's {@code next} URL, as the datalake client sends it.
 */
class NextLinkPropertiesTest {
    /** Small pages and budgets, so that a dozen buckets need many pages; and the API's own. */
    private static final List<TimeQueryPager.Limits> LIMITS = List.of(
            new TimeQueryPager.Limits(1, 1, 1, 1, 1),
            new TimeQueryPager.Limits(3, 2, 3, 2, 1),
            new TimeQueryPager.Limits(7, 3, 8, 4, 2),
            TimeQueryPager.Limits.API);
    /** One API per limits (each owns a pool of read threads), over whichever table the try fills. */
    private static final SwitchableTable TABLE = new SwitchableTable();
    /** The shard map of the current try. */
    private static final AtomicReference<ShardMap> SHARDS = new AtomicReference<>(ShardMap.EMPTY);
    private static final List<QueryApi> APIS = LIMITS.stream().map(limits -> QueryApi.builder()
            .config(QueryConfig.of("records", "lake")).records(TABLE).shards(SHARDS::get).files(new FakeObjectStore())
            .clock(Clock.fixed(Instant.parse("2024-01-01T00:00:00Z"), ZoneOffset.UTC)).limits(limits).build()).toList();
    private static final List<String> WHERES = List.of("web", "db");

    @Property(tries = 250)
    void followingNextReturnsEveryMatchingFileOnce(
            @ForAll("anchorDays") int anchorDay,
            @ForAll("files") List<FileSpec> specs,
            @ForAll("windows") Window window,
            @ForAll("limits") int limitsIndex,
            @ForAll("where") String where,
            @ForAll("shardings") FileLayouts.Sharding sharding) {
        // given files over a dozen days from the anchor (1965 to 1974)
        long anchor = anchorDay * DAY;
        List<Metadata> files = FileLayouts.metadata(specs, anchor, WHERES);
        SHARDS.set(sharding.map(anchor));
        TABLE.use(new InMemoryRecordsTable().put(TestFiles.records(files, SHARDS.get())));
        long start = window.start(anchor);
        long end = window.end(anchor);
        QueryApi api = APIS.get(limitsIndex);
        int pageSize = LIMITS.get(limitsIndex).pageSize();

        // when a client asks in ISO-8601 (as a number it could not say 1972 in ms) and follows next
        String first = "what=w&start=" + Links.encode(datalake.records.Times.toIso(start))
                + "&end=" + Links.encode(datalake.records.Times.toIso(end))
                + (where.isEmpty() ? "" : "&where=" + where);
        List<String> got = new ArrayList<>();
        APIGatewayV2HTTPResponse response = api.handle(Events.get("/v0/archive/files/", first));
        for (int pages = 1; ; pages++) {
            assertEquals(200, response.getStatusCode(), "page " + pages + ": " + response.getBody());
            JsonNode page = Events.body(response);
            assertTrue(page.path("records").size() <= pageSize, "a page holds at most pageSize records");
            page.path("records").forEach(r -> got.add(r.path("metadata").path("id").asText()));
            if (page.path("next").isNull() || pages > 100_000) {
                break;
            }
            URI next = URI.create(page.path("next").asText());
            assertEquals("/v0/archive/files/", next.getRawPath());
            response = api.handle(Events.get(next.getRawPath(), next.getRawQuery()));
        }

        // then every file that meets [start, end] came, once
        Set<String> expected = FileLayouts.matching(files, start, end, where.isEmpty() ? null : where);
        assertEquals(expected.size(), got.size(), "as many files as match: none twice, none missing");
        assertEquals(expected, new HashSet<>(got));
    }

    /** Days since the epoch: 1965-11 to 1974-02, across 0 and across 1e11 ms (1973-03-03). */
    @Provide
    Arbitrary<Integer> anchorDays() {
        return Arbitraries.oneOf(Arbitraries.integers().between(-1500, 1500),
                Arbitraries.of(-12, -6, -1, 0, 1150, 1157));
    }

    @Provide
    Arbitrary<List<FileSpec>> files() {
        return FileLayouts.files(WHERES.size(), 60);
    }

    @Provide
    Arbitrary<Window> windows() {
        return FileLayouts.windows();
    }

    @Provide
    Arbitrary<FileLayouts.Sharding> shardings() {
        return FileLayouts.shardings();
    }

    @Provide
    Arbitrary<Integer> limits() {
        return Arbitraries.integers().between(0, LIMITS.size() - 1);
    }

    @Provide
    Arbitrary<String> where() {
        return Arbitraries.of("", "web", "db");
    }

    /** The records table of the current try. */
    private static final class SwitchableTable implements RecordsTable {
        private volatile RecordsTable current = new InMemoryRecordsTable();

        void use(RecordsTable table) {
            current = table;
        }

        @Override
        public Slice queryKey(TimeIndexKey key, String rangePrefix, String after, int limit) {
            return current.queryKey(key, rangePrefix, after, limit);
        }

        @Override
        public Slice queryWorkId(String workId, String what, String rangePrefix, String after, int limit) {
            return current.queryWorkId(workId, what, rangePrefix, after, limit);
        }
    }
}
