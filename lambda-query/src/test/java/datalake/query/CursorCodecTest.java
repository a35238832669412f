package datalake.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CursorCodecTest {
    private static final FilesQuery.ByTime TIME = new FilesQuery.ByTime("syslog", "web", TestFiles.T0, TestFiles.T0 + 3 * TestFiles.DAY);
    private static final long FIRST = TIME.firstBucket();

    private static String code(FilesQuery query, String text) {
        return assertThrows(RequestRejectedException.class, () -> CursorCodec.decode(query, text)).code();
    }

    @Test
    void aCursorRoundTripsThroughItsText() {
        Cursor cursor = new Cursor(FIRST + 2, "web:abc-123");

        String text = CursorCodec.encode(TIME, cursor);

        assertTrue(text.matches("[A-Za-z0-9_-]+"), "URL-safe without escaping: " + text);
        assertEquals(cursor, CursorCodec.decode(TIME, text));
    }

    @Test
    void aBucketStartWithoutKeyAndAWorkIdCursorRoundTrip() {
        FilesQuery.ByWorkId work = new FilesQuery.ByWorkId("syslog", null, "job");
        assertEquals(new Cursor(FIRST, null), CursorCodec.decode(TIME, CursorCodec.encode(TIME, new Cursor(FIRST, null))));
        assertEquals(new Cursor(null, "web:x"), CursorCodec.decode(work, CursorCodec.encode(work, new Cursor(null, "web:x"))));
    }

    @Test
    void theNextPagesWhereRoundTripsAndACursorWithoutItStillReads() {
        FilesQuery.ByTime anyWhere = new FilesQuery.ByTime("syslog", null, TIME.start(), TIME.end());
        Cursor advised = new Cursor(FIRST + 1, "db:abc", "web");
        assertEquals(advised, CursorCodec.decode(anyWhere, CursorCodec.encode(anyWhere, advised)));
        // a cursor written before the advice was (no "w"), as that code wrote it
        String before = withChecksum("{\"v\":1,\"f\":\"" + anyWhere.fingerprint() + "\",\"b\":" + FIRST
                + ",\"k\":\"db:abc\"}");
        assertEquals(new Cursor(FIRST, "db:abc", null), CursorCodec.decode(anyWhere, before));
    }

    @Test
    void theLongestPositionWithTheLongestNextWhereStaysACursorTheCodecTakes() {
        // DynamoDB's longest sort key (1,024 bytes, of a table another writer filled) and a slug's length
        FilesQuery.ByTime anyWhere = new FilesQuery.ByTime("syslog", null, TIME.start(), TIME.end());
        Cursor longest = new Cursor(FIRST, "w".repeat(1022) + ":x", "w".repeat(256));
        String text = CursorCodec.encode(anyWhere, longest);
        assertTrue(text.length() <= CursorCodec.MAX_LENGTH, text.length() + " characters");
        assertEquals(longest, CursorCodec.decode(anyWhere, text));
    }

    @Test
    void aPositionOfCharactersJsonEscapesStaysACursorTheCodecTakes() {
        // another writer's ids: quotes, backslashes and control characters, six bytes each in JSON at most
        FilesQuery.ByTime anyWhere = new FilesQuery.ByTime("syslog", null, TIME.start(), TIME.end());
        for (String c : List.of("\"", "\\", "\u0001", "\u001f")) {
            Cursor longest = new Cursor(FIRST, "w:" + c.repeat(1022), c.repeat(256));
            String text = CursorCodec.encode(anyWhere, longest);
            assertTrue(text.length() <= CursorCodec.MAX_LENGTH, text.length() + " characters");
            assertEquals(longest, CursorCodec.decode(anyWhere, text));
        }
        // one such character among many that JSON takes as they are: the same
        Cursor mixed = new Cursor(FIRST, "w:" + "\u00e9".repeat(400) + "\"" + "x".repeat(220), "w\"b");
        String text = CursorCodec.encode(anyWhere, mixed);
        assertTrue(text.length() <= CursorCodec.MAX_LENGTH, text.length() + " characters");
        assertEquals(mixed, CursorCodec.decode(anyWhere, text));
        // the encoded form must be base64 of UTF-8, and only one form of a field
        String fingerprint = "{\"v\":1,\"f\":\"" + anyWhere.fingerprint() + "\",\"b\":" + FIRST;
        assertEquals("InvalidCursor", code(anyWhere, withChecksum(fingerprint + ",\"K\":\"_w\"}")));
        assertEquals("InvalidCursor", code(anyWhere, withChecksum(fingerprint + ",\"K\":\"dzp4\",\"k\":\"w:x\"}")));
        assertEquals(new Cursor(FIRST, "w:x", null), CursorCodec.decode(anyWhere, withChecksum(fingerprint
                + ",\"K\":\"dzp4\"}")));
    }

    @Test
    void aNextWhereNoWhereCouldBeOrOnAnotherKindOfCursorIsRefused() {
        FilesQuery.ByTime anyWhere = new FilesQuery.ByTime("syslog", null, TIME.start(), TIME.end());
        assertEquals("InvalidCursor", code(anyWhere, CursorCodec.encode(anyWhere, new Cursor(FIRST, null, "a:b"))));
        assertEquals("InvalidCursor", code(anyWhere, CursorCodec.encode(anyWhere, new Cursor(FIRST, null, ""))));
        assertEquals("InvalidCursor", code(anyWhere, CursorCodec.encode(anyWhere,
                new Cursor(FIRST, null, "w".repeat(257)))));
        assertEquals("InvalidCursor", code(anyWhere, withChecksum("{\"v\":1,\"f\":\"" + anyWhere.fingerprint()
                + "\",\"b\":" + FIRST + ",\"w\":7}")));
        FilesQuery.ByWorkId work = new FilesQuery.ByWorkId("syslog", null, "job");
        assertEquals("InvalidCursor", code(work, CursorCodec.encode(work, new Cursor(null, "web:x", "web"))));
    }

    @Test
    void everyEditedCharacterIsRefused() {
        String text = CursorCodec.encode(TIME, new Cursor(FIRST + 1, "web:abc"));
        for (int i = 0; i < text.length(); i++) {
            char replacement = text.charAt(i) == 'A' ? 'B' : 'A';
            String tampered = text.substring(0, i) + replacement + text.substring(i + 1);
            assertEquals("InvalidCursor", code(TIME, tampered), "edited at " + i);
        }
    }

    @Test
    void truncatedOrExtendedTextIsRefused() {
        String text = CursorCodec.encode(TIME, new Cursor(FIRST, "web:abc"));
        assertEquals("InvalidCursor", code(TIME, text.substring(0, text.length() - 1)));
        assertEquals("InvalidCursor", code(TIME, text.substring(0, 10)));
        assertEquals("InvalidCursor", code(TIME, text + "A"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"x", "====", "not a cursor", "eyJ2IjoxfQ", "%00", "AAAAAAAAAAAAAAAAAAAA", "a.b"})
    void garbageIsRefused(String garbage) {
        assertEquals("InvalidCursor", code(TIME, garbage));
    }

    @Test
    void overlongTextIsRefused() {
        assertEquals("InvalidCursor", code(TIME, "A".repeat(CursorCodec.MAX_LENGTH + 1)));
    }

    @Test
    void aCursorOfAnotherQueryIsRefused() {
        String text = CursorCodec.encode(TIME, new Cursor(FIRST, "web:abc"));

        assertEquals("InvalidCursor", code(new FilesQuery.ByTime("syslog", "web", TIME.start(), TIME.end() + 1), text));
        assertEquals("InvalidCursor", code(new FilesQuery.ByTime("nginx", "web", TIME.start(), TIME.end()), text));
        assertEquals("InvalidCursor", code(new FilesQuery.ByWorkId("syslog", "web", "job"), text));
    }

    @Test
    void aValidlyChecksummedCursorOutsideItsQueryIsRefused() {
        // Forged with the right checksum: the position itself must still lie inside the query.
        assertEquals("InvalidCursor", code(TIME, CursorCodec.encode(TIME, new Cursor(FIRST - 1, null))));
        assertEquals("InvalidCursor", code(TIME, CursorCodec.encode(TIME, new Cursor(TIME.lastBucket() + 1, null))));
        assertEquals("InvalidCursor", code(TIME, CursorCodec.encode(TIME, new Cursor(FIRST, "db:abc"))));
        assertEquals("InvalidCursor", code(TIME, CursorCodec.encode(TIME, new Cursor(null, "web:abc"))));
        assertEquals("InvalidCursor", code(TIME, CursorCodec.encode(TIME, new Cursor(FIRST, "web:"))));
        FilesQuery.ByWorkId work = new FilesQuery.ByWorkId("syslog", null, "job");
        assertEquals("InvalidCursor", code(work, CursorCodec.encode(work, new Cursor(null, null))));
        assertEquals("InvalidCursor", code(work, CursorCodec.encode(work, new Cursor(5L, "web:x"))));
        assertEquals("InvalidCursor", code(work, CursorCodec.encode(work, new Cursor(null, "no-separator"))));
    }

    @Test
    void wellFormedJsonOfTheWrongShapeIsRefused() {
        assertEquals("InvalidCursor", code(TIME, withChecksum("{\"v\":2,\"f\":\"" + TIME.fingerprint() + "\",\"b\":" + FIRST + "}")));
        assertEquals("InvalidCursor", code(TIME, withChecksum("{\"v\":1,\"f\":\"" + TIME.fingerprint() + "\",\"b\":\"1\"}")));
        assertEquals("InvalidCursor", code(TIME, withChecksum("{\"v\":1,\"f\":\"" + TIME.fingerprint() + "\",\"b\":1.5}")));
        assertEquals("InvalidCursor", code(TIME, withChecksum("[1,2]")));
        assertEquals("InvalidCursor", code(TIME, withChecksum("{\"v\":1,\"f\":\"" + TIME.fingerprint()
                + "\",\"b\":" + FIRST + ",\"k\":7}")));
        assertEquals("InvalidCursor", code(TIME, withChecksum("{not json")));
    }

    /** A cursor text with a correct checksum around any payload, as a forger who read this code could make. */
    private static String withChecksum(String json) {
        String valid = CursorCodec.encode(TIME, new Cursor(FIRST, null));
        byte[] token = Base64.getUrlDecoder().decode(valid);
        byte[] validPayload = java.util.Arrays.copyOf(token, token.length - 8);
        assertTrue(new String(validPayload, StandardCharsets.UTF_8).startsWith("{\"v\":1"));
        try {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            sha.update("datalake-query-cursor/1".getBytes(StandardCharsets.US_ASCII));
            byte[] payload = json.getBytes(StandardCharsets.UTF_8);
            byte[] sum = sha.digest(payload);
            byte[] forged = java.util.Arrays.copyOf(payload, payload.length + 8);
            System.arraycopy(sum, 0, forged, payload.length, 8);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(forged);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
