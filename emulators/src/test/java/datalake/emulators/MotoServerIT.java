package datalake.emulators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.Socket;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

class MotoServerIT {

    @Test
    void s3KeepsUserMetadataAndStopEndsTheProcess() {
        MotoServer moto = new MotoServer();
        moto.start();
        int port = moto.port();
        try (S3Client s3 = Emulators.clientsFor(moto.endpoint()).build(S3Client.builder().forcePathStyle(true))) {
            s3.createBucket(r -> r.bucket("moto-it"));
            s3.putObject(r -> r.bucket("moto-it").key("2026/01/01/app log.txt")
                    .metadata(Map.of("datalake", "{\"version\":0}")), RequestBody.fromString("hello"));

            HeadObjectResponse head = s3.headObject(r -> r.bucket("moto-it").key("2026/01/01/app log.txt"));

            assertEquals("{\"version\":0}", head.metadata().get("datalake"));
            assertEquals(5L, head.contentLength());
        } finally {
            moto.stop();
        }

        assertFalse(moto.isRunning());
        assertThrows(IOException.class, () -> new Socket("127.0.0.1", port).close());
    }

    @Test
    void resetWipesState() {
        try (MotoServer moto = new MotoServer(); ) {
            moto.start();
            try (S3Client s3 = Emulators.clientsFor(moto.endpoint()).build(S3Client.builder().forcePathStyle(true))) {
                s3.createBucket(r -> r.bucket("to-be-wiped"));

                moto.reset();

                assertEquals(0, s3.listBuckets().buckets().size());
            }
        }
    }
}
