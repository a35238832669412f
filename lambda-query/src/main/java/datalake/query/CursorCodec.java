package datalake.query;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.records.MetadataRules;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The opaque cursor text of {@code next} URLs: base64url (no padding) of a small JSON document
 * ({@code v} format version, {@code f} the query's fingerprint, {@code b} bucket, {@code k} range key,
 * {@code w} the next page's first WHERE) followed by an 8-byte checksum of it. A cursor without {@code w}
 * (written before it was) reads as one without the advice; one with it, by code that ignores it, too.
 * A range key or WHERE holding a character JSON escapes ({@code "}, {@code \}, a control character, up
 * to six bytes each: another writer's ids may hold them) goes as {@code K} or {@code W} instead, base64url
 * of its UTF-8 bytes, so that every position the API can reach fits in {@link #MAX_LENGTH}.
 *
 * <p>Decoding refuses, with 400 {@code InvalidCursor}, anything this codec did not write for the same
 * query: bad base64, a wrong checksum (truncated or edited text), another query's fingerprint, a bucket
 * outside the query's range, a key outside its WHERE or a next WHERE no WHERE could be. The checksum is
 * not a secret signature: a forged cursor that passes every check can still only move within its own
 * query (a forged next WHERE only sizes a read).
 */
final class CursorCodec {
    /** The longest cursor: DynamoDB's longest sort key and a slug-long WHERE, each as base64, and the rest. */
    static final int MAX_LENGTH = 2560;
    private static final int VERSION = 1;
    private static final int CHECKSUM_BYTES = 8;
    private static final byte[] CHECKSUM_CONTEXT = "datalake-query-cursor/1".getBytes(StandardCharsets.US_ASCII);
    private static final Pattern BASE64URL = Pattern.compile("[A-Za-z0-9_-]+");
    /** DynamoDB's limit for a sort key value. */
    private static final int MAX_KEY_BYTES = 1024;
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonFactory FACTORY = MAPPER.getFactory();

    private CursorCodec() {
    }

    static String encode(FilesQuery query, Cursor cursor) {
        return encode(query.fingerprint(), cursor);
    }

    static Cursor decode(FilesQuery query, String text) {
        Cursor cursor = decode(query.fingerprint(), text);
        check(query, cursor);
        return cursor;
    }

    /** The cursor text of a position in the query with this fingerprint (a files or a feeds query). */
    static String encode(String fingerprint, Cursor cursor) {
        ByteArrayOutputStream json = new ByteArrayOutputStream(128);
        try (JsonGenerator g = FACTORY.createGenerator(json)) {
            g.writeStartObject();
            g.writeNumberField("v", VERSION);
            g.writeStringField("f", fingerprint);
            if (cursor.bucket() != null) {
                g.writeNumberField("b", cursor.bucket());
            }
            writeText(g, "k", cursor.after());
            writeText(g, "w", cursor.nextWhere());
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] payload = json.toByteArray();
        byte[] token = Arrays.copyOf(payload, payload.length + CHECKSUM_BYTES);
        System.arraycopy(checksum(payload), 0, token, payload.length, CHECKSUM_BYTES);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(token);
    }

    /** The position a cursor text holds, if this codec wrote it for the query with this fingerprint. */
    static Cursor decode(String fingerprint, String text) {
        if (text.length() > MAX_LENGTH || !BASE64URL.matcher(text).matches()) {
            throw invalid();
        }
        byte[] token;
        try {
            token = Base64.getUrlDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
        if (token.length <= CHECKSUM_BYTES) {
            throw invalid();
        }
        byte[] payload = Arrays.copyOf(token, token.length - CHECKSUM_BYTES);
        byte[] sum = Arrays.copyOfRange(token, payload.length, token.length);
        if (!MessageDigest.isEqual(sum, Arrays.copyOf(checksum(payload), CHECKSUM_BYTES))) {
            throw invalid();
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(payload);
        } catch (IOException e) {
            throw invalid();
        }
        if (node == null || !node.isObject() || !node.path("v").isInt() || node.path("v").intValue() != VERSION) {
            throw invalid();
        }
        if (!node.path("f").isTextual() || !node.path("f").textValue().equals(fingerprint)) {
            throw new RequestRejectedException(400, ErrorCodes.INVALID_CURSOR,
                    "The cursor belongs to another query; use the next URL exactly as it was returned.");
        }
        Long bucket = null;
        JsonNode b = node.get("b");
        if (b != null) {
            if (!b.isIntegralNumber() || !b.canConvertToLong()) {
                throw invalid();
            }
            bucket = b.longValue();
        }
        return new Cursor(bucket, text(node, "k"), text(node, "w"));
    }

    /**
     * A string field, as JSON text under {@code name} or, when JSON would escape any of its characters,
     * as base64url of its UTF-8 bytes under {@code name} in upper case; nothing when null.
     */
    private static void writeText(JsonGenerator g, String name, String value) throws IOException {
        if (value == null) {
            return;
        }
        if (value.chars().anyMatch(c -> c < 0x20 || c == '"' || c == '\\')) {
            g.writeStringField(name.toUpperCase(Locale.ROOT),
                    Base64.getUrlEncoder().withoutPadding().encodeToString(value.getBytes(StandardCharsets.UTF_8)));
        } else {
            g.writeStringField(name, value);
        }
    }

    /** The string field {@code name} (or its base64 form, {@link #writeText}), or null when absent. */
    private static String text(JsonNode node, String name) {
        JsonNode field = node.get(name);
        JsonNode encoded = node.get(name.toUpperCase(Locale.ROOT));
        if (field == null && encoded == null) {
            return null;
        }
        if (field != null && encoded != null) {
            throw invalid();
        }
        if (field != null) {
            if (!field.isTextual()) {
                throw invalid();
            }
            return field.textValue();
        }
        if (!encoded.isTextual() || !BASE64URL.matcher(encoded.textValue()).matches()) {
            throw invalid();
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .decode(ByteBuffer.wrap(Base64.getUrlDecoder().decode(encoded.textValue()))).toString();
        } catch (IllegalArgumentException | CharacterCodingException e) {
            throw invalid();
        }
    }

    /**
     * Whether a cursor may name this WHERE as the next page's ({@link Cursor#nextWhere}): one a range key
     * can hold ({@code <where>:<id>}: not empty, no {@code :}) of at most a slug's length in UTF-8 bytes, so
     * that the longest position and its advice stay under {@link #MAX_LENGTH}. The pager writes advice only
     * when this holds, and decoding refuses any other.
     */
    static boolean carries(String where) {
        return !where.isEmpty() && where.indexOf(':') < 0
                && where.getBytes(StandardCharsets.UTF_8).length <= MetadataRules.MAX_SLUG_LENGTH;
    }

    /** The position must lie inside the query: its bucket range and its WHERE. */
    private static void check(FilesQuery query, Cursor cursor) {
        if (query instanceof FilesQuery.ByTime time) {
            if (cursor.bucket() == null || cursor.bucket() < time.firstBucket() || cursor.bucket() > time.lastBucket()) {
                throw invalid();
            }
        } else if (cursor.bucket() != null || cursor.after() == null || cursor.nextWhere() != null) {
            throw invalid();
        }
        if (cursor.nextWhere() != null && !carries(cursor.nextWhere())) {
            throw invalid();
        }
        String after = cursor.after();
        if (after != null) {
            int sep = after.indexOf(':');
            if (sep <= 0 || sep == after.length() - 1
                    || after.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES
                    || (query.rangePrefix() != null && !after.startsWith(query.rangePrefix()))) {
                throw invalid();
            }
        }
    }

    private static RequestRejectedException invalid() {
        return RequestRejectedException.badRequest(ErrorCodes.INVALID_CURSOR,
                "The cursor is not valid; use the next URL exactly as it was returned, or start again without a cursor.");
    }

    private static byte[] checksum(byte[] payload) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(CHECKSUM_CONTEXT);
            return sha.digest(payload);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
