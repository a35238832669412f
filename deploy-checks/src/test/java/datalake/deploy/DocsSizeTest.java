package datalake.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.emulators.template.Repository;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The documents stay sized to their reader: README.md, docs/*.md and the modules' READMEs hold at most
 * {@value #MAX_WORDS} words in all, counted as {@code cat README.md docs/*.md *}{@code /README.md
 * clients/*}{@code /README.md | wc -w} counts them. Each fact has one place; a new one displaces an old.
 */
class DocsSizeTest {
    static final long MAX_WORDS = 14_000;

    @Test
    void theDocumentsStayUnderTheirWordBudget() {
        // given every document a reader meets
        Path root = Repository.root();
        List<Path> documents = Documents.all(root);
        assertTrue(documents.size() >= 8, "the documents are found under " + root + ": " + documents);

        // when their words are counted
        Map<Path, Long> words = documents.stream()
                .collect(Collectors.toMap(p -> p, p -> Documents.words(Documents.read(p))));
        long total = words.values().stream().mapToLong(Long::longValue).sum();

        // then they stay within the budget
        String biggest = words.entrySet().stream()
                .sorted(Map.Entry.<Path, Long>comparingByValue(Comparator.reverseOrder()))
                .limit(5)
                .map(e -> root.relativize(e.getKey()) + " " + e.getValue())
                .collect(Collectors.joining(", "));
        assertTrue(total <= MAX_WORDS, "the documents hold " + total + " words (wc -w), over " + MAX_WORDS
                + ": shorten what repeats or narrates; the biggest are " + biggest);
    }

    @Test
    void wordsAreCountedAsWcCountsThem() {
        // given text with every kind of white space, punctuation alone and non-ASCII words
        String text = "  # Title\n\nA table | `x` |\ttab\r\nend→start – µs\u2003em-spaced\u00a0no-break\n";

        // then a word is a run of non-space characters, as wc -w has it (a no-break space separates too)
        assertEquals(13, Documents.words(text));
        assertEquals(0, Documents.words(" \n\t "));
    }
}
