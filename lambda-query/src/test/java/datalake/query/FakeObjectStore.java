package datalake.query;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Objects by bucket and key with their user metadata; links are recognisable fake presigned URLs. */
final class FakeObjectStore implements ObjectStore {
    private final Map<String, Map<String, String>> objects = new ConcurrentHashMap<>();

    FakeObjectStore put(String bucket, String key, Map<String, String> userMetadata) {
        objects.put(bucket + "/" + key, userMetadata);
        return this;
    }

    @Override
    public Optional<Map<String, String>> userMetadata(String bucket, String key) {
        return Optional.ofNullable(objects.get(bucket + "/" + key));
    }

    @Override
    public URI presignedGet(String bucket, String key, Duration validity) {
        return URI.create("https://" + bucket + ".s3.example/" + key + "?X-Amz-Expires=" + validity.toSeconds());
    }
}
