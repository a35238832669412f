package datalake.ingester;

/**
 * What a HeadObject tells about an object.
 *
 * @param datalakeMetadata the user metadata {@code datalake} (JSON text), or null when absent
 * @param lastModified     LastModified, ms since the epoch (the record's {@code create_time})
 * @param size             ContentLength in bytes
 */
public record StoredObject(String datalakeMetadata, long lastModified, long size) {
}
