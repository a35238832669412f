package datalake.ingester;

/** An object without the {@code datalake} user metadata: nothing to index, whatever the retries. */
final class MissingMetadataException extends RuntimeException {
    public MissingMetadataException(String url) {
        super(url + " has no datalake metadata (user metadata 'datalake', header x-amz-meta-datalake).",
                null, false, false);
    }
}
