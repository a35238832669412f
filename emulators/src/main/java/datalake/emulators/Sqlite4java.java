package datalake.emulators;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Finds sqlite4java's native library for DynamoDB Local. sqlite4java reads the system property
 * {@code sqlite4java.library.path} once, when it first loads; Maven copies the library (the parent's
 * {@code copy-sqlite4java} execution) to {@code target/native-libs} of the module that runs the tests.
 */
final class Sqlite4java {
    static final String LIBRARY_PATH_PROPERTY = "sqlite4java.library.path";
    static final String DIR_PROPERTY = "datalake.sqlite4java.dir";
    static final Path DEFAULT_DIR = Path.of("target", "native-libs");

    private Sqlite4java() {}

    /**
     * Makes sure {@code sqlite4java.library.path} names a directory holding this platform's library:
     * sets it, when unset, to {@code datalake.sqlite4java.dir} or else {@code target/native-libs}.
     *
     * @throws EmulatorNotInstalledException when the library is not there
     */
    static synchronized void configure() {
        String configured = System.getProperty(LIBRARY_PATH_PROPERTY);
        Path dir;
        String source;
        if (configured != null && !configured.isBlank()) {
            dir = Path.of(configured);
            source = "system property " + LIBRARY_PATH_PROPERTY;
        } else if (System.getProperty(DIR_PROPERTY) != null) {
            dir = Path.of(System.getProperty(DIR_PROPERTY));
            source = "system property " + DIR_PROPERTY;
        } else {
            dir = DEFAULT_DIR;
            source = "the default, relative to " + Path.of("").toAbsolutePath();
        }
        Path absolute = dir.toAbsolutePath().normalize();
        String missing = missingLibrary(absolute, System.getProperty("os.name"), System.getProperty("os.arch"));
        if (missing != null) {
            throw new EmulatorNotInstalledException("DynamoDB Local needs sqlite4java's native library " + missing
                    + " in " + absolute + " (" + source + "); declare <plugin><artifactId>maven-dependency-plugin</artifactId></plugin>"
                    + " in this module's build plugins so the parent POM's copy-sqlite4java execution copies it there,"
                    + " or point -D" + DIR_PROPERTY + " at a directory that holds it.");
        }
        System.setProperty(LIBRARY_PATH_PROPERTY, absolute.toString());
    }

    /** Null when {@code dir} holds the library for this platform, else a description of what is missing. */
    static String missingLibrary(Path dir, String osName, String osArch) {
        List<String> expected = expectedNames(osName, osArch);
        if (expected.isEmpty()) {
            // Unknown platform: accept any sqlite4java library and let sqlite4java decide.
            try (Stream<Path> files = Files.list(dir)) {
                return files.anyMatch(f -> f.getFileName().toString().contains("sqlite4java")) ? null : "(any platform)";
            } catch (IOException e) {
                return "(any platform)";
            }
        }
        for (String name : expected) {
            if (Files.isRegularFile(dir.resolve(name))) {
                return null;
            }
        }
        return expected.get(0);
    }

    /** sqlite4java's file names for a platform (version-less, as the copy execution strips versions). */
    static List<String> expectedNames(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        if (os.contains("linux")) {
            return switch (arch) {
                case "amd64", "x86_64" -> List.of("libsqlite4java-linux-amd64.so");
                case "x86", "i386", "i686" -> List.of("libsqlite4java-linux-i386.so");
                default -> List.of("libsqlite4java-linux-" + arch + ".so");
            };
        }
        if (os.contains("mac") || os.contains("darwin")) {
            return List.of("libsqlite4java-osx.dylib", "libsqlite4java-osx-" + arch + ".dylib");
        }
        if (os.contains("windows")) {
            return List.of(arch.contains("64") ? "sqlite4java-win32-x64.dll" : "sqlite4java-win32-x86.dll");
        }
        return List.of();
    }
}
