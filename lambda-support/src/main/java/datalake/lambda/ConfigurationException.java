package datalake.lambda;

/** An environment variable that is missing or malformed; the message names it, in one sentence. */
public final class ConfigurationException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public ConfigurationException(String message) {
        super(message);
    }
}
