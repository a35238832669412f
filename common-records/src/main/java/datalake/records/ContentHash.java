package datalake.records;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.bouncycastle.crypto.digests.Blake2bDigest;

/**
 * The datalake content hash: BLAKE2b with a 16-byte digest, as lowercase hex (what the datalake
 * client stores in metadata {@code hash}). Streams in 64 KiB reads, so any file size fits.
 */
public final class ContentHash {
    static final int DIGEST_BYTES = 16;
    private static final int READ_SIZE = 64 * 1024;

    private ContentHash() {
    }

    public static String of(InputStream in) throws IOException {
        Blake2bDigest digest = new Blake2bDigest(DIGEST_BYTES * 8);
        byte[] buffer = new byte[READ_SIZE];
        int n;
        while ((n = in.read(buffer)) != -1) {
            digest.update(buffer, 0, n);
        }
        return finish(digest);
    }

    public static String of(byte[] content) {
        Blake2bDigest digest = new Blake2bDigest(DIGEST_BYTES * 8);
        digest.update(content, 0, content.length);
        return finish(digest);
    }

    public static String of(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return of(in);
        }
    }

    private static String finish(Blake2bDigest digest) {
        byte[] out = new byte[DIGEST_BYTES];
        digest.doFinal(out, 0);
        return HexFormat.of().formatHex(out);
    }
}
