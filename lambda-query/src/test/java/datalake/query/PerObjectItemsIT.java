package datalake.query;

import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;
import static datalake.query.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.ObjectItems;
import datalake.dynamodb.RecordKey;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.records.Metadata;
import datalake.records.RecordFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The ingester's per-object items share the records table (docs/DESIGN.md, "Records and keys"); no
 * query ever returns one: time queries, work-id queries (the GSI) and latest (the day-bucket scan) read
 * by keys the items' key space can never take. Against dynalite, with an item beside every file,
 * removed ones included.
 */
@ExtendWith(EmulatorsExtension.class)
class PerObjectItemsIT {
    private static final Emulators AWS = Emulators.shared();

    @Test
    void noQueryReturnsAPerObjectItem() {
        QueryHarness tables = QueryHarness.create(AWS, "per-object-items");
        List<Metadata> files = List.of(
                file("a1", "syslog", "web", T0, null, "job-1"),
                file("a2", "syslog", "web", T0 + DAY, T0 + 2 * DAY, null),
                file("a3", "syslog", "db", T0 + 3 * DAY, null, "job-1"));
        tables.write(files);
        RecordFactory factory = new RecordFactory();
        for (Metadata m : files) {
            String url = RecordFactory.s3Url(tables.stack().bucket(), m.id() + "/data");
            List<RecordKey> keys = new ArrayList<>();
            factory.records(m, url, 1L, 1L).forEach(r -> keys.add(RecordKey.of(r)));
            ObjectEntry entry = new ObjectEntry(url, 1L, "c-" + m.id(), ObjectEntry.State.INDEXED, m, 1L, 1L, "e", null,
                    null, keys, List.of(), null);
            AWS.dynamoDb().putItem(r -> r.tableName(tables.stack().recordsTable()).item(ObjectItems.toItem(entry)));
        }
        ObjectEntry removed = new ObjectEntry(RecordFactory.s3Url(tables.stack().bucket(), "gone/data"), 1L, "c-gone",
                ObjectEntry.State.ABSENT, null, 0, 0, null, null, null, List.of(), List.of(), null);
        AWS.dynamoDb().putItem(r -> r.tableName(tables.stack().recordsTable()).item(ObjectItems.toItem(removed)));
        QueryHandler handler = tables.handler(false);

        assertEquals(Set.of("a1", "a2", "a3"), ids(handler, "what=syslog&start=" + (T0 - DAY) + "&end=" + (T0 + 5 * DAY)));
        assertEquals(Set.of("a1", "a2"), ids(handler, "what=syslog&where=web&start=" + T0 + "&end=" + (T0 + 5 * DAY)));
        assertEquals(Set.of("a1", "a3"), ids(handler, "what=syslog&work_id=job-1"));
        JsonNode latest = Events.body(handler.handleRequest(Events.get("/v0/archive/latest/syslog/web",
                "lookback=3650"), Events.QUIET));
        assertEquals("a2", latest.path("metadata").path("id").asText());
    }

    private static Set<String> ids(QueryHandler handler, String query) {
        JsonNode body = Events.body(handler.handleRequest(Events.get("/v0/archive/files/", query), Events.QUIET));
        Set<String> ids = new TreeSet<>();
        body.path("records").forEach(r -> ids.add(r.path("metadata").path("id").asText()));
        return ids;
    }
}
