package datalake.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FilesQueryParserTest {
    private static final long NOW = 1_704_153_600_000L;

    private static Map<String, String> params(String... nameValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            map.put(nameValues[i], nameValues[i + 1]);
        }
        return map;
    }

    private static String codeOf(Map<String, String> params) {
        RequestRejectedException e = assertThrows(RequestRejectedException.class, () -> FilesQueryParser.parse(params, NOW));
        assertEquals(400, e.status());
        assertTrue(e.getMessage().endsWith("."), "one sentence: " + e.getMessage());
        return e.code();
    }

    @Test
    void noParametersAtAllIsNoArgs() {
        assertEquals("NoArgs", codeOf(params()));
    }

    @Test
    void missingOrEmptyWhatIsNoWhat() {
        assertEquals("NoWhat", codeOf(params("start", "1", "end", "2")));
        assertEquals("NoWhat", codeOf(params("what", "", "work_id", "job")));
    }

    @Test
    void neitherWorkIdNorIntervalIsNoWorkInterval() {
        assertEquals("NoWorkInterval", codeOf(params("what", "syslog")));
        assertEquals("NoWorkInterval", codeOf(params("what", "syslog", "where", "host", "work_id", "")));
    }

    @Test
    void workIdWithTimesOrHalfAnIntervalOrStartAfterEndIsInvalidWorkInterval() {
        assertEquals("InvalidWorkInterval", codeOf(params("what", "s", "work_id", "j", "start", "1")));
        assertEquals("InvalidWorkInterval", codeOf(params("what", "s", "work_id", "j", "end", "1")));
        assertEquals("InvalidWorkInterval", codeOf(params("what", "s", "start", "1")));
        assertEquals("InvalidWorkInterval", codeOf(params("what", "s", "end", "1")));
        assertEquals("InvalidWorkInterval", codeOf(params("what", "s", "start", "2000000000000", "end", "1000000000000")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"yesterday", "12abc", "2024-13-01", "NaN", "Infinity", "1e400", "0x10",
            "99999999999999999999", "-99999999999999999", "10000-01-01", "", "NOW", "Now", " now", "now ", "now()"})
    void unreadableTimesAreInvalidTime(String bad) {
        Map<String, String> p = params("what", "s", "start", bad.isEmpty() ? " " : bad, "end", "1700000000000");
        assertEquals("InvalidTime", codeOf(p));
    }

    @Test
    void badEndIsInvalidTimeToo() {
        assertEquals("InvalidTime", codeOf(params("what", "s", "start", "1700000000000", "end", "soon")));
    }

    @Test
    void timesAreMillisecondsSecondsOrIso() {
        FilesQuery.ByTime ms = (FilesQuery.ByTime) FilesQueryParser.parse(
                params("what", "s", "start", "1704067200000", "end", "1704067200001"), NOW);
        assertEquals(1_704_067_200_000L, ms.start());
        assertEquals(1_704_067_200_001L, ms.end());

        FilesQuery.ByTime seconds = (FilesQuery.ByTime) FilesQueryParser.parse(
                params("what", "s", "start", "1704067200", "end", "1704067200.5"), NOW);
        assertEquals(1_704_067_200_000L, seconds.start());
        assertEquals(1_704_067_200_500L, seconds.end());

        FilesQuery.ByTime iso = (FilesQuery.ByTime) FilesQueryParser.parse(
                params("what", "s", "where", "h", "start", "2024-01-01", "end", "2024-01-01T01:00:00.250+01:00"), NOW);
        assertEquals(1_704_067_200_000L, iso.start());
        assertEquals(1_704_067_200_250L, iso.end());
        assertEquals("h", iso.where());
        assertEquals("h:", iso.rangePrefix());
    }

    @Test
    void exactlyNowIsTheRequestsTime() {
        FilesQuery.ByTime upToNow = (FilesQuery.ByTime) FilesQueryParser.parse(
                params("what", "s", "start", "2024-01-01", "end", "now"), NOW);
        FilesQuery.ByTime fromNow = (FilesQuery.ByTime) FilesQueryParser.parse(
                params("what", "s", "start", "now", "end", "now"), NOW);

        assertEquals(new FilesQuery.ByTime("s", null, 1_704_067_200_000L, NOW), upToNow);
        assertEquals(new FilesQuery.ByTime("s", null, NOW, NOW), fromNow);
        assertEquals("InvalidWorkInterval", codeOf(params("what", "s", "start", "now", "end", "2024-01-01")));
    }

    @Test
    void workIdQueryKeepsWhere() {
        FilesQuery query = FilesQueryParser.parse(params("what", "s", "where", "h", "work_id", "job-1"), NOW);
        assertEquals(new FilesQuery.ByWorkId("s", "h", "job-1"), query);
    }

    @Test
    void fingerprintsDifferForDifferentQueries() {
        FilesQuery a = new FilesQuery.ByTime("s", null, 1, 2);
        FilesQuery b = new FilesQuery.ByTime("s", null, 1, 3);
        FilesQuery c = new FilesQuery.ByTime("s", "h", 1, 2);
        FilesQuery d = new FilesQuery.ByWorkId("s", null, "1");
        assertEquals(a.fingerprint(), new FilesQuery.ByTime("s", null, 1, 2).fingerprint());
        assertEquals(4, java.util.Set.of(a.fingerprint(), b.fingerprint(), c.fingerprint(), d.fingerprint()).size());
    }
}
