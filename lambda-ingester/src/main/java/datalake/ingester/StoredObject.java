package datalake.ingester;

/**
 * What a HeadObject tells about an object.
 *
 * @param datalakeMetadata the user metadata {@code datalake} (JSON text), or null when absent
 * @param lastModified     LastModified, ms since the epoch (the record's {@code create_time})
 * @param size             ContentLength in bytes
 * @param etag             the ETag without quotes, or null
 * @param versionId        the version id in a versioned bucket, or null
 */
public record StoredObject(String datalakeMetadata, long lastModified, long size, String etag, String versionId) {
    public StoredObject(String datalakeMetadata, long lastModified, long size) {
        this(datalakeMetadata, lastModified, size, null, null);
    }
}
