package datalake.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import datalake.emulators.template.Repository;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link of the documents resolves: to a file or folder of the repository, and a
 * {@code #fragment} into a Markdown file to one of its headings (as GitHub makes their anchors), so a
 * renamed heading or a moved file cannot leave a reader at a dead end.
 */
class DocsLinksTest {

    @Test
    void everyRelativeLinkOfTheDocumentsResolves() {
        // given the repository's documents
        Path root = Repository.root();

        // when their links are followed
        List<String> broken = new ArrayList<>();
        for (Path document : Documents.all(root)) {
            Documents.brokenLinks(root, document).forEach(b -> broken.add(root.relativize(document) + ": " + b));
        }

        // then none is broken
        assertEquals(List.of(), broken);
    }

    @Test
    void aMissingFileAHeadingThatIsNotThereAndALinkOutsideAreFound(@TempDir Path root) throws IOException {
        // given documents with good and broken links, some of them only in code, which is no link
        Files.createDirectories(root.resolve("docs"));
        Files.writeString(root.resolve("docs/GUIDE.md"), """
                # Guide

                ## Metadata (version 0)

                ## Decisions, and why
                """);
        Path readme = root.resolve("README.md");
        Files.writeString(readme, """
                # Project

                See [the guide](docs/GUIDE.md#metadata-version-0), [why](docs/GUIDE.md#decisions-and-why),
                [the top](#project), [AWS](https://aws.amazon.com/) and ![a picture](docs/GUIDE.md).
                Broken: [gone](docs/GONE.md), [renamed](docs/GUIDE.md#metadata), [outside](../elsewhere.md).
                Not links: `[x](nowhere.md)` and

                ```
                [y](nowhere.md)
                ```
                """);

        // when the README's links are followed
        List<String> broken = Documents.brokenLinks(root, readme);

        // then exactly the broken ones are named, with why
        assertEquals(List.of("docs/GONE.md: no such file",
                "docs/GUIDE.md#metadata: no heading with the anchor #metadata in docs/GUIDE.md",
                "../elsewhere.md: points outside the repository"), broken);
        assertEquals(Set.of("guide", "metadata-version-0", "decisions-and-why"),
                Documents.anchors(Documents.read(root.resolve("docs/GUIDE.md"))));
    }
}
