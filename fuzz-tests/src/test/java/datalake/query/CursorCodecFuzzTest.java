package datalake.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/**
 * Cursors come back from clients, so they are untrusted. Two targets: any cursor text, and any payload
 * behind a correct checksum (a forger who read the code), so that the fuzzer gets past the checksum to
 * the JSON and range checks. Only 400 InvalidCursor may come out, and whatever is accepted lies inside
 * the query it was decoded for.
 */
class CursorCodecFuzzTest {
    private static final FilesQuery.ByTime TIME =
            new FilesQuery.ByTime("syslog", "web", 1_426_809_600_000L, 1_427_414_400_000L);
    private static final FilesQuery.ByWorkId WORK = new FilesQuery.ByWorkId("syslog", null, "job-1");

    @FuzzTest(maxDuration = "10s")
    void anyCursorTextIsAcceptedOrInvalidCursor(FuzzedDataProvider data) {
        FilesQuery query = data.consumeBoolean() ? TIME : WORK;
        boolean forged = data.consumeBoolean();
        byte[] payload = data.consumeRemainingAsBytes();
        String text = forged ? withChecksum(payload) : new String(payload, StandardCharsets.UTF_8);
        Cursor cursor;
        try {
            cursor = CursorCodec.decode(query, text);
        } catch (RequestRejectedException e) {
            assertEquals(400, e.status());
            assertEquals(ErrorCodes.INVALID_CURSOR, e.code());
            return;
        }
        if (query == TIME) {
            assertTrue(cursor.bucket() >= TIME.firstBucket() && cursor.bucket() <= TIME.lastBucket(), text);
            assertTrue(cursor.after() == null || cursor.after().startsWith("web:"), text);
            assertTrue(cursor.nextWhere() == null || !cursor.nextWhere().isEmpty()
                    && cursor.nextWhere().indexOf(':') < 0, text);
        } else {
            assertTrue(cursor.bucket() == null && cursor.after() != null && cursor.nextWhere() == null, text);
        }
        // An accepted cursor is bound to its query: no other query takes it.
        FilesQuery other = query == TIME ? new FilesQuery.ByTime("syslog", "web", TIME.start(), TIME.end() + 1)
                : new FilesQuery.ByWorkId("syslog", null, "job-2");
        try {
            CursorCodec.decode(other, text);
            throw new AssertionError("a cursor of " + query + " was accepted for " + other);
        } catch (RequestRejectedException expected) {
            assertEquals(ErrorCodes.INVALID_CURSOR, expected.code());
        }
    }

    /** The codec's checksum (SHA-256 of a context and the payload, 8 bytes) appended, base64url. */
    static String withChecksum(byte[] payload) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update("datalake-query-cursor/1".getBytes(StandardCharsets.US_ASCII));
            byte[] sum = sha.digest(payload);
            byte[] token = Arrays.copyOf(payload, payload.length + 8);
            System.arraycopy(sum, 0, token, payload.length, 8);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(token);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
