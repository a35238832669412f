package datalake.emulators;

/**
 * A file a local {@link HttpApiServer} serves beside the API (the explorer page): API Gateway serves
 * no such thing, and the deployed function never does either.
 */
@SuppressWarnings("ArrayRecordComponent") // copied in and out, so equal bytes are the only thing shared
public record StaticFile(String contentType, byte[] body) {
    public StaticFile {
        body = body.clone();
    }

    @Override
    public byte[] body() {
        return body.clone();
    }
}
