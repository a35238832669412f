package datalake.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

/**
 * The raw query string of {@code /v0/archive/files/} as a client sends it: decoded by {@link ApiRequest},
 * parsed by {@link FilesQueryParser}, its cursor (if any) decoded against the query. Only a 400 with one
 * of the v0 codes may come out; a parsed time query never has start after end.
 */
class FilesQueryParserFuzzTest {
    static final Set<String> CODES = Set.of(ErrorCodes.NO_ARGS, ErrorCodes.NO_WHAT, ErrorCodes.NO_WORK_INTERVAL,
            ErrorCodes.INVALID_WORK_INTERVAL, ErrorCodes.INVALID_TIME, ErrorCodes.INVALID_CURSOR);

    @FuzzTest(maxDuration = "10s")
    void onlyV0BadRequestsComeOut(byte[] input) {
        String raw = new String(input, StandardCharsets.UTF_8);
        try {
            Map<String, String> params = ApiRequest.parseQuery(raw);
            FilesQuery query = FilesQueryParser.parse(params, 1_704_067_200_000L);
            if (query instanceof FilesQuery.ByTime time) {
                assertTrue(time.start() <= time.end(), raw);
            }
            String cursor = FilesQueryParser.present(params, "cursor");
            if (cursor != null) {
                CursorCodec.decode(query, cursor);
            }
        } catch (RequestRejectedException e) {
            assertEquals(400, e.status(), raw);
            assertTrue(CODES.contains(e.code()), e.code());
            assertTrue(e.getMessage().endsWith("."), e.getMessage());
        }
    }
}
