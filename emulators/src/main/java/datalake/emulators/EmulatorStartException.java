package datalake.emulators;

/** An installed emulator failed to start: it exited, did not answer in time, or its port was taken. */
public final class EmulatorStartException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EmulatorStartException(String message) {
        super(message);
    }

    public EmulatorStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
