package datalake.emulators.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.emulators.template.Repository;
import datalake.emulators.template.SamTransform;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Nothing in template.yaml differs locally without being listed, and docs/DESIGN.md shows the list. */
class EmulationTest {
    private static final String BEGIN = "<!-- emulation: generated from emulators' Emulation.java by EmulationTest -->\n";
    private static final String END = "<!-- emulation: end -->";

    @Test
    void everyTypeAndPropertyOfTheTemplateIsAppliedOrListed() {
        assertEquals(List.of(), Emulation.uncovered(SamTransform.repositoryTemplate()));
    }

    @Test
    void docsDesignShowsTheCatalogue() throws IOException {
        String design = Files.readString(Repository.root().resolve("docs/DESIGN.md"));
        int begin = design.indexOf(BEGIN);
        int end = design.indexOf(END);
        assertTrue(begin >= 0 && end > begin, "docs/DESIGN.md holds the table between\n" + BEGIN + "and\n" + END);
        assertEquals(Emulation.markdown(), design.substring(begin + BEGIN.length(), end),
                "docs/DESIGN.md's table of what the local stack does not do; replace it with the expected text");
    }
}
