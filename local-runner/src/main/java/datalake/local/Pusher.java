package datalake.local;

import datalake.records.ContentHash;
import datalake.records.DatalakeJson;
import datalake.records.Metadata;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Uploads a file to the storage bucket as the datalake client's {@code push} does: key
 * {@code <id>/data}, a fresh id, the BLAKE2b-128 hash of the content, and the metadata as JSON in
 * the user metadata {@code datalake}. S3 then notifies the ingest path like for any upload.
 */
final class Pusher {
    private final S3Client s3;
    private final String bucket;

    Pusher(S3Client s3, String bucket) {
        this.s3 = s3;
        this.bucket = bucket;
    }

    /** What the pusher knows of a file before it has an id and a hash. */
    record FileFacts(String what, String where, long start, Long end, String workId, String path) {
    }

    /** Uploads the file and returns its metadata (with id and hash) and its {@code s3://} URL. */
    Pushed push(Path file, FileFacts facts) throws IOException {
        String id = UUID.randomUUID().toString().replace("-", "");
        Metadata metadata = new Metadata(facts.start(), facts.end(), facts.path(), facts.workId(),
                facts.where(), facts.what(), id, ContentHash.of(file));
        String key = id + "/data";
        s3.putObject(r -> r.bucket(bucket).key(key).metadata(Map.of("datalake", DatalakeJson.toObjectMetadata(metadata))),
                RequestBody.fromFile(file));
        return new Pushed(metadata, "s3://" + bucket + "/" + key);
    }

    record Pushed(Metadata metadata, String url) {
    }
}
