package datalake.emulators;

/**
 * An emulator cannot run because something it needs is not installed: moto_server is missing from the
 * test virtualenv, or dynalite from its install folder (scripts/lib/dynalite.sh). The message
 * says how to install it.
 */
public final class EmulatorNotInstalledException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EmulatorNotInstalledException(String message) {
        super(message);
    }
}
