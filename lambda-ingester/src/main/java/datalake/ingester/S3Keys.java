package datalake.ingester;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Object keys as S3 notifications carry them: form-URL-encoded ({@code +} is a space, {@code %xx}
 * escapes the bytes of UTF-8). Decoding is strict: a broken escape or invalid UTF-8 is an error,
 * never a silently different key.
 */
final class S3Keys {
    private S3Keys() {
    }

    /** The key S3's APIs take; {@link IllegalArgumentException} when {@code encoded} is malformed. */
    static String decode(String encoded) {
        if (encoded.indexOf('%') < 0) {
            return encoded.indexOf('+') < 0 ? encoded : encoded.replace('+', ' ');
        }
        byte[] bytes = new byte[encoded.length() * 3];
        int n = 0;
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == '%') {
                if (i + 2 >= encoded.length()) {
                    throw new IllegalArgumentException("a '%' escape is cut short");
                }
                int hi = Character.digit(encoded.charAt(i + 1), 16);
                int lo = Character.digit(encoded.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw new IllegalArgumentException("a '%' is not followed by two hex digits");
                }
                bytes[n++] = (byte) (hi << 4 | lo);
                i += 2;
            } else if (c == '+') {
                bytes[n++] = ' ';
            } else if (c < 0x80) {
                bytes[n++] = (byte) c;
            } else {
                // Not expected in encoded keys, but keep any literal non-ASCII text as its UTF-8 bytes.
                int end = Character.isHighSurrogate(c) && i + 1 < encoded.length() ? i + 2 : i + 1;
                byte[] utf8 = encoded.substring(i, end).getBytes(StandardCharsets.UTF_8);
                System.arraycopy(utf8, 0, bytes, n, utf8.length);
                n += utf8.length;
                i = end - 1;
            }
        }
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            CharBuffer decoded = utf8.decode(ByteBuffer.wrap(bytes, 0, n));
            return decoded.toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("the escapes are not UTF-8");
        }
    }
}
