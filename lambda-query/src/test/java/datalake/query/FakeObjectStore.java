package datalake.query;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Objects by bucket and key with their user metadata and content; links are recognisable fake presigned
 * URLs that carry the response headers asked for.
 */
final class FakeObjectStore implements ObjectStore {
    private final Map<String, Map<String, String>> objects = new ConcurrentHashMap<>();
    private final Map<String, byte[]> contents = new ConcurrentHashMap<>();
    private final Map<String, String> archives = new ConcurrentHashMap<>();

    FakeObjectStore put(String bucket, String key, Map<String, String> userMetadata) {
        return put(bucket, key, userMetadata, "content of " + key);
    }

    FakeObjectStore put(String bucket, String key, Map<String, String> userMetadata, String content) {
        objects.put(bucket + "/" + key, userMetadata);
        contents.put(bucket + "/" + key, content.getBytes(StandardCharsets.UTF_8));
        return this;
    }

    /** Archives an object put before in this storage class: its content cannot be read until it is restored. */
    FakeObjectStore archive(String bucket, String key, String storageClass) {
        archives.put(bucket + "/" + key, storageClass);
        return this;
    }

    @Override
    public Optional<Map<String, String>> userMetadata(String bucket, String key) {
        return Optional.ofNullable(objects.get(bucket + "/" + key));
    }

    @Override
    public Optional<ObjectStart> start(String bucket, String key, int length) {
        byte[] content = contents.get(bucket + "/" + key);
        String archive = archives.get(bucket + "/" + key);
        return userMetadata(bucket, key).map(metadata -> archive != null
                ? new ObjectStart(metadata, new byte[0], Optional.of(archive))
                : new ObjectStart(metadata, Arrays.copyOf(content, Math.min(length, content.length))));
    }

    @Override
    public URI presignedGet(String bucket, String key, Duration validity, ContentHeaders headers) {
        return URI.create("https://" + bucket + ".s3.example/" + key + "?X-Amz-Expires=" + validity.toSeconds()
                + "&response-content-type=" + Links.encode(headers.type())
                + (headers.encoding() == null ? "" : "&response-content-encoding=" + headers.encoding()));
    }
}
