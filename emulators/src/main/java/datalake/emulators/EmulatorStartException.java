package datalake.emulators;

/** An installed emulator failed to start: it exited, did not answer in time, or its port was taken. */
final class EmulatorStartException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    EmulatorStartException(String message) {
        super(message);
    }

    EmulatorStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
