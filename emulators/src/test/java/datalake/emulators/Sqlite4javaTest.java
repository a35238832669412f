package datalake.emulators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Sqlite4javaTest {
    @TempDir Path dir;

    @Test
    void linuxAmd64NeedsTheLinuxAmd64Library() throws Exception {
        assertEquals("libsqlite4java-linux-amd64.so", Sqlite4java.missingLibrary(dir, "Linux", "amd64"));

        Files.createFile(dir.resolve("libsqlite4java-linux-amd64.so"));

        assertNull(Sqlite4java.missingLibrary(dir, "Linux", "amd64"));
    }

    @Test
    void aMissingLibrarySaysHowToCopyIt() {
        String libraryPath = System.getProperty(Sqlite4java.LIBRARY_PATH_PROPERTY);
        System.clearProperty(Sqlite4java.LIBRARY_PATH_PROPERTY);
        System.setProperty(Sqlite4java.DIR_PROPERTY, dir.toString());
        try {
            EmulatorNotInstalledException e = assertThrows(EmulatorNotInstalledException.class, Sqlite4java::configure);

            assertTrue(e.getMessage().contains("in " + dir.toAbsolutePath()), e.getMessage());
            assertTrue(e.getMessage().contains("copy-sqlite4java"), e.getMessage());
            assertNull(System.getProperty(Sqlite4java.LIBRARY_PATH_PROPERTY));
        } finally {
            System.clearProperty(Sqlite4java.DIR_PROPERTY);
            if (libraryPath != null) {
                System.setProperty(Sqlite4java.LIBRARY_PATH_PROPERTY, libraryPath);
            }
        }
    }

    @Test
    void namesFollowSqlite4javasPlatformConvention() {
        assertEquals(List.of("libsqlite4java-linux-amd64.so"), Sqlite4java.expectedNames("Linux", "x86_64"));
        assertEquals("libsqlite4java-osx.dylib", Sqlite4java.expectedNames("Mac OS X", "aarch64").get(0));
        assertEquals(List.of("sqlite4java-win32-x64.dll"), Sqlite4java.expectedNames("Windows 11", "amd64"));
    }

    @Test
    void theBuildCopiedTheLibraryForThisPlatformIntoTargetNativeLibs() {
        // The parent POM's copy-sqlite4java execution runs before the tests of a module that declares it.
        assertNull(Sqlite4java.missingLibrary(Sqlite4java.DEFAULT_DIR.toAbsolutePath(),
                System.getProperty("os.name"), System.getProperty("os.arch")));
    }
}
