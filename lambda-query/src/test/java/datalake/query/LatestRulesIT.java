package datalake.query;

import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.lambda.JsonLog;
import datalake.records.Metadata;
import datalake.records.TimeBuckets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The rules of {@code latest} as the Python API keeps them, on dynalite: a latest-table entry
 * answers whatever its age ({@code lookback} bounds only the scan of day buckets); a file whose start
 * lies more than 24 hours ahead is never the latest, neither as the table's entry nor in the buckets,
 * while one at most 24 hours ahead is.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(EmulatorsExtension.class)
class LatestRulesIT {
    static final Emulators AWS = Emulators.shared();
    /** Noon, so that the bucket 24 hours ahead also holds files more than 24 hours ahead (its evening). */
    private static final long NOW = Instant.parse("2025-06-15T12:00:00Z").toEpochMilli();
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC);
    private static final long HOUR = 3_600_000L;

    private QueryHarness tables;

    @BeforeAll
    void writeFeeds() {
        tables = QueryHarness.create(AWS, "latest-rules");
        Metadata monthOld = file("month-old", "syslog", "quiet", NOW - 30 * DAY, null);
        Metadata inThreeDays = file("in-three-days", "syslog", "wrong-date", NOW + 3 * DAY, null);
        Metadata tomorrowEvening = file("tomorrow-evening", "syslog", "soon", NOW + 30 * HOUR, null);
        tables.write(List.of(
                monthOld,
                file("yesterday-wd", "syslog", "wrong-date", NOW - DAY, null),
                inThreeDays,
                file("tomorrow-evening-wd", "syslog", "wrong-date", NOW + 30 * HOUR, null),
                file("yesterday-soon", "syslog", "soon", NOW - DAY, null),
                file("in-twenty-hours", "syslog", "soon", NOW + 20 * HOUR, null),
                tomorrowEvening));
        // the ingester's latest table keeps the newest start it saw, however wrong its date
        tables.writeLatest(TestFiles.records(monthOld).get(0));
        tables.writeLatest(TestFiles.records(inThreeDays).get(0));
        tables.writeLatest(TestFiles.records(tomorrowEvening).get(0));
    }

    private APIGatewayV2HTTPResponse latest(boolean withLatestTable, String where, String query) {
        QueryHandler handler = tables.handler(withLatestTable, JsonLog.discarding("datalake.query"), CLOCK);
        return handler.handleRequest(Events.get("/v0/archive/latest/syslog/" + where, query), Events.QUIET);
    }

    private static String id(APIGatewayV2HTTPResponse response) {
        assertEquals(200, response.getStatusCode(), response.getBody());
        return Events.body(response).path("metadata").path("id").asText();
    }

    @Test
    void theTablesEntryAnswersWhateverItsAgeAndLookbackBoundsOnlyTheScan() {
        APIGatewayV2HTTPResponse fromTable = latest(true, "quiet", null);
        APIGatewayV2HTTPResponse scanned = latest(false, "quiet", null);
        APIGatewayV2HTTPResponse scannedFurther = latest(false, "quiet", "lookback=31");

        assertEquals("month-old", id(fromTable));
        assertEquals(404, scanned.getStatusCode());
        assertEquals("NoSuchFile", Events.body(scanned).path("code").asText());
        assertEquals("month-old", id(scannedFurther));
    }

    @Test
    void anEntryMoreThanADayAheadIsIgnoredAndNeitherItNorAnotherSuchFileIsTakenFromTheBuckets() {
        // given that the bucket 24 hours ahead is scanned, and holds a file 30 hours ahead
        assertEquals(TimeBuckets.bucketOf(NOW + DAY), TimeBuckets.bucketOf(NOW + 30 * HOUR));

        APIGatewayV2HTTPResponse response = latest(true, "wrong-date", null);

        assertEquals("yesterday-wd", id(response));
    }

    @Test
    void withoutALatestTableTheScanIgnoresFilesMoreThanADayAhead() {
        APIGatewayV2HTTPResponse wrongDate = latest(false, "wrong-date", null);
        APIGatewayV2HTTPResponse soon = latest(false, "soon", null);

        assertEquals("yesterday-wd", id(wrongDate));
        assertEquals("in-twenty-hours", id(soon));
    }

    @Test
    void aFileAtMostADayAheadIsTheLatestWhenTheTablesEntryIsFurtherAhead() {
        APIGatewayV2HTTPResponse soon = latest(true, "soon", null);

        assertEquals("in-twenty-hours", id(soon));
    }
}
