package datalake.query;

import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;
import static datalake.query.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.records.Metadata;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Work-id queries against dynalite where the GSI key of a file without a work_id
 * ({@code null<id>:<what>}) equals a key a work_id query asks for: such a query returns only files
 * whose {@code metadata.work_id} is the requested one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(EmulatorsExtension.class)
class WorkIdQueryIT {
    static final Emulators AWS = Emulators.shared();

    private QueryHandler handler;

    @BeforeAll
    void writeFiles() {
        QueryHarness tables = QueryHarness.create(AWS, "work-id-it");
        List<Metadata> files = new ArrayList<>();
        // without a work_id: index keys nullable:syslog, nullx1:syslog, nullsolo:syslog
        files.add(file("able", "syslog", "web", T0, T0 + 2 * DAY));
        files.add(file("x1", "syslog", "db", T0 + DAY, null));
        files.add(file("solo", "syslog", "web", T0 + 3 * DAY, null));
        // real work_ids that begin with "null": two of them are also the key of a file above
        files.add(file("n1", "syslog", "web", T0, T0 + 4 * DAY, "nullable"));
        files.add(file("n2", "syslog", "db", T0 + DAY, null, "nullable"));
        files.add(file("j1", "syslog", "web", T0 + 2 * DAY, null, "nullx1"));
        files.add(file("k1", "syslog", "web", T0 + 2 * DAY, null, "null-job"));
        // 150 files without a work_id whose ids begin with "able", which sort after "able" on the index:
        // the files of "nullable" must still be found through pages of the index that hold none of them
        for (int i = 0; i < 150; i++) {
            files.add(file(String.format("able%03d", i), "syslog", "web", T0 + i * 60_000L, null));
        }
        tables.write(files);
        handler = tables.handler(false);
    }

    /** Follows next as the client does. */
    private List<String> ids(String query) {
        List<String> ids = new ArrayList<>();
        APIGatewayV2HTTPResponse response = handler.handleRequest(Events.get("/v0/archive/files/", query), Events.QUIET);
        while (true) {
            assertEquals(200, response.getStatusCode(), response.getBody());
            JsonNode page = Events.body(response);
            page.path("records").forEach(r -> ids.add(r.path("metadata").path("id").asText()));
            if (page.path("next").isNull()) {
                return ids;
            }
            URI next = URI.create(page.path("next").asText());
            response = handler.handleRequest(Events.get(next.getRawPath(), next.getRawQuery()), Events.QUIET);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            // a real work_id that begins with "null" and equals the index key of file "able": its own files only
            "what=syslog&work_id=nullable|n1 n2",
            "what=syslog&work_id=nullable&where=web|n1",
            "what=syslog&work_id=nullable&where=db|n2",
            // equals the index key of file "x1"
            "what=syslog&work_id=nullx1|j1",
            "what=syslog&work_id=null-job|k1",
            // null<id> of files without a work_id: no file has such a work_id
            "what=syslog&work_id=nullsolo|''",
            "what=syslog&work_id=nullable000|''",
            "what=syslog&work_id=nullx1&where=db|''",
            // "null" is no work_id a file can have (the ingester refuses it)
            "what=syslog&work_id=null|''"})
    void aWorkIdQueryReturnsOnlyTheFilesOfThatWorkId(String query, String expected) {
        List<String> got = ids(query);

        Set<String> want = expected.isEmpty() ? Set.of() : Set.of(expected.split(" "));
        assertEquals(want, new HashSet<>(got), query);
        assertEquals(want.size(), got.size(), "no file twice");
    }
}
