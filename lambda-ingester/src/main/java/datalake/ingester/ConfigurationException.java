package datalake.ingester;

/** An environment variable that is missing or malformed; the message names it, in one sentence. */
public final class ConfigurationException extends RuntimeException {
    public ConfigurationException(String message) {
        super(message);
    }
}
