package datalake.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.emulators.template.Repository;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * docs/DESIGN.md's module table, the newcomer's map of the house, names exactly the reactor's modules
 * (pom.xml's {@code <modules>}); its other rows, marked {@code (Python)} or {@code (static)}, are folders
 * outside the reactor.
 */
class ModulesTableTest {
    private static final String HEADING = "### Modules\n";
    /** A row's first cell: the name in backticks, maybe linked, then maybe a parenthesised kind. */
    private static final Pattern ROW = Pattern.compile("^\\| \\[?`([^`]+)`(?:\\]\\([^)]*\\))?( \\(([^)]+)\\))? \\|");

    private record Row(String name, boolean outsideTheReactor) {
    }

    @Test
    void theTableNamesEveryModuleOfTheReactorAndNoOther() throws Exception {
        // given the reactor's modules and DESIGN's table
        Path root = Repository.root();
        Set<String> reactor = new TreeSet<>(reactorModules(root.resolve("pom.xml")));
        List<Row> rows = rows(Files.readString(root.resolve("docs/DESIGN.md")));

        // then its unmarked rows are the reactor, and the marked ones are folders the reactor leaves out
        Set<String> listed = new TreeSet<>();
        rows.stream().filter(r -> !r.outsideTheReactor()).forEach(r -> listed.add(r.name()));
        assertEquals(reactor, listed, "docs/DESIGN.md's table under \"Modules\" lists the modules of pom.xml:"
                + " add a row for a new module, remove a row for a removed one");
        for (Row other : rows.stream().filter(Row::outsideTheReactor).toList()) {
            assertTrue(Files.isDirectory(root.resolve(other.name())) && !reactor.contains(other.name()),
                    "docs/DESIGN.md's row " + other.name() + " is marked as outside the reactor: it names a folder"
                            + " of the repository that pom.xml does not build");
        }
    }

    @Test
    void aRowIsReadWithOrWithoutItsLinkAndKind() {
        // given a table as DESIGN writes it: plain, linked, and a part outside the reactor
        String design = "# Design\n\n" + HEADING + "\n| module | holds | depends on |\n|---|---|---|\n"
                + "| `common-records` | the domain | Jackson |\n"
                + "| [`emulators`](../emulators/README.md) | AWS on one machine | lambda-support |\n"
                + "| [`clients/python`](../clients/python/README.md) (Python) | signed sessions | requests |\n"
                + "| `explorer` (static) | the page | the API only |\n\nA function's shaded jar | not | a row |\n";

        // then each row is read, and the table ends at its blank line
        assertEquals(List.of(new Row("common-records", false), new Row("emulators", false),
                new Row("clients/python", true), new Row("explorer", true)), rows(design));
    }

    /** The modules of a POM's {@code <modules>}, comments left out. */
    private static List<String> reactorModules(Path pom) throws Exception {
        Element project = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile())
                .getDocumentElement();
        NodeList modules = project.getElementsByTagName("module");
        List<String> names = new ArrayList<>();
        for (int i = 0; i < modules.getLength(); i++) {
            names.add(modules.item(i).getTextContent().strip());
        }
        assertFalse(names.isEmpty(), pom + " lists its modules");
        return names;
    }

    /** The rows of the table under DESIGN's "Modules" heading, up to the first line that is not a table's. */
    private static List<Row> rows(String design) {
        int heading = design.indexOf(HEADING);
        assertTrue(heading >= 0, "docs/DESIGN.md has the heading " + HEADING.strip());
        List<String> lines = design.substring(heading + HEADING.length()).lines().dropWhile(String::isBlank)
                .takeWhile(l -> l.startsWith("|")).toList();
        assertTrue(lines.size() > 2, "a table follows the heading " + HEADING.strip());
        List<Row> rows = new ArrayList<>();
        for (String line : lines.subList(2, lines.size())) {
            Matcher row = ROW.matcher(line);
            assertTrue(row.find(), "docs/DESIGN.md's module row " + line + " starts with a name in backticks");
            rows.add(new Row(row.group(1), row.group(3) != null));
        }
        return rows;
    }
}
