package datalake.query;

import static datalake.query.TestFiles.DAY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.records.DatalakeJson;
import datalake.records.Metadata;
import datalake.records.MetadataRules;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The query side of the metadata limits (common-records' {@link MetadataRules}), against dynalite
 * and moto. One rule: a what, where, work_id or id that no stored file can have is answered as one that
 * no stored file has, never a 400 or a 5xx: the empty list for {@code /files/}, 404 NoSuchFile for the
 * routes of one file. Values at the limits (256 characters, an id of 128) are found.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(EmulatorsExtension.class)
class QueryLimitsIT {
    static final Emulators AWS = Emulators.shared();
    private static final String WHAT = "w".repeat(MetadataRules.MAX_SLUG_LENGTH - 2) + "-1";
    private static final String WHERE = "h".repeat(MetadataRules.MAX_SLUG_LENGTH - 2) + "_2";
    private static final String WORK_ID = "j".repeat(MetadataRules.MAX_SLUG_LENGTH);
    /** 128 characters of ASCII: also the id of an object in moto, with the metadata /metadata serves. */
    private static final String ID = "i".repeat(MetadataRules.MAX_ID_LENGTH - 1) + "d";
    /** 128 characters of three UTF-8 bytes each: the longest range key, 256 + 1 + 384 bytes. */
    private static final String WIDE_ID = "€".repeat(MetadataRules.MAX_ID_LENGTH);

    private final long now = System.currentTimeMillis();
    private QueryHarness tables;
    private QueryHandler handler;

    @BeforeAll
    void writeFilesAtTheLimits() {
        tables = QueryHarness.create(AWS, "limits-it");
        AWS.s3().createBucket(r -> r.bucket(tables.stack().bucket()));
        Metadata longest = new Metadata(now - DAY, now - DAY + 60_000, "/var/log/limits.log", WORK_ID, WHERE, WHAT,
                ID, TestFiles.HASH);
        Metadata wide = longest.withId(WIDE_ID).withTimes(now - 2 * DAY, now - DAY - 1);
        tables.write(List.of(longest, wide));
        AWS.s3().putObject(r -> r.bucket(tables.stack().bucket()).key(ID + "/data")
                .metadata(Map.of("datalake", DatalakeJson.toJson(longest))), RequestBody.fromString("at the limits\n"));
        List<Record> records = new RecordFactory().records(longest, "s3://" + tables.stack().bucket() + "/" + ID
                + "/data", now, 14);
        tables.writeLatest(records.get(records.size() - 1));
        handler = tables.handler(true);
    }

    private APIGatewayV2HTTPResponse get(String path, String query) {
        return handler.handleRequest(Events.get(path, query), Events.QUIET);
    }

    private Set<String> ids(String query) {
        APIGatewayV2HTTPResponse response = get("/v0/archive/files/", query);
        assertEquals(200, response.getStatusCode(), response.getBody());
        JsonNode page = Events.body(response);
        assertTrue(page.path("next").isNull());
        List<String> ids = new ArrayList<>();
        page.path("records").forEach(r -> ids.add(r.path("metadata").path("id").asText()));
        return ids.stream().collect(Collectors.toSet());
    }

    @Test
    void valuesAtTheLimitsAreFoundByEveryQuery() {
        String range = "&start=" + (now - 3 * DAY) + "&end=" + now;

        Set<String> byTime = ids("what=" + WHAT + range);
        Set<String> byTimeAndWhere = ids("what=" + WHAT + "&where=" + WHERE + range);
        Set<String> byWorkId = ids("what=" + WHAT + "&work_id=" + WORK_ID + "&where=" + WHERE);
        JsonNode latest = Events.body(get("/v0/archive/latest/" + WHAT + "/" + WHERE, ""));
        JsonNode metadata = Events.body(get("/v0/archive/files/" + ID + "/metadata", ""));
        APIGatewayV2HTTPResponse data = get("/v0/archive/files/" + ID + "/data", "");

        assertEquals(Set.of(ID, WIDE_ID), byTime);
        assertEquals(Set.of(ID, WIDE_ID), byTimeAndWhere);
        assertEquals(Set.of(ID, WIDE_ID), byWorkId);
        assertEquals(ID, latest.path("metadata").path("id").asText());
        assertEquals(WORK_ID, metadata.path("work_id").asText());
        assertEquals(302, data.getStatusCode());
    }

    /**
     * Beyond the limits, and far beyond them (keys DynamoDB itself would refuse: a partition key over
     * 2,048 bytes, a sort key prefix over 1,024), the answer is the empty list.
     */
    @ParameterizedTest
    @CsvSource({
            "257, 0, 0, 0",
            "3000, 0, 0, 0",
            "256, 257, 0, 0",
            "256, 1100, 0, 0",
            "256, 256, 257, 0",
            "256, 256, 2100, 0",
            "256, 256, 0, 1"})
    void aWhatWhereOrWorkIdNoFileCanHaveFindsNothing(int whatLength, int whereLength, int workIdLength,
            int workIdNull) {
        String what = WHAT + "x".repeat(whatLength - WHAT.length());
        String where = whereLength == 0 ? null : WHERE + "y".repeat(whereLength - WHERE.length());
        String workId = workIdNull == 1 ? "null" : workIdLength == 0 ? null : WORK_ID + "z".repeat(workIdLength - 256);
        String query = "what=" + what + (where == null ? "" : "&where=" + where)
                + (workId == null ? "&start=" + (now - 3 * DAY) + "&end=" + now : "&work_id=" + workId);

        Set<String> got = ids(query);

        assertEquals(Set.of(), got);
    }

    @ParameterizedTest
    @CsvSource({
            "257, 256",
            "256, 257",
            "3000, 256",
            "256, 3000"})
    void theLatestOfAWhatOrWhereNoFileCanHaveIsNoSuchFile(int whatLength, int whereLength) {
        String what = WHAT + "x".repeat(whatLength - WHAT.length());
        String where = WHERE + "y".repeat(whereLength - WHERE.length());

        assertNoSuchFile(get("/v0/archive/latest/" + what + "/" + where, ""));
        assertNoSuchFile(get("/v0/archive/latest/" + what + "/" + where + "/data", ""));
    }

    @ParameterizedTest
    @CsvSource({"metadata", "data"})
    void anIdNoFileCanHaveIsNoSuchFile(String route) {
        String tooLong = ID + "x";
        String wideTooLong = WIDE_ID + "€";

        assertNoSuchFile(get("/v0/archive/files/" + tooLong + "/" + route, ""));
        assertNoSuchFile(get("/v0/archive/files/" + Links.pathSegment(wideTooLong) + "/" + route, ""));
        assertNoSuchFile(get("/v0/archive/files/" + "y".repeat(5000) + "/" + route, ""));
    }

    private static void assertNoSuchFile(APIGatewayV2HTTPResponse response) {
        assertEquals(404, response.getStatusCode(), response.getBody());
        assertEquals("NoSuchFile", Events.body(response).path("code").asText());
    }
}
