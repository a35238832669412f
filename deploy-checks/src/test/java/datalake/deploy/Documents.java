package datalake.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The documents a reader meets, as the shell names them: {@code README.md docs/*.md *}{@code /README.md
 * clients/*}{@code /README.md}, with what the tests check of them (their words, counted as {@code wc -w}
 * counts, and their relative links).
 */
final class Documents {
    /** An inline link or image, {@code [text](target)} or {@code ![alt](target "title")}. */
    private static final Pattern LINK = Pattern.compile("!?\\[(?:[^\\[\\]]|\\[[^\\]]*])*]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    /** A code span, whose text is never a link. */
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?:(?!\\1).)+?\\1");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

    private Documents() {
    }

    /** The documents under {@code root}, in the order the shell's globs list them. */
    static List<Path> all(Path root) {
        List<Path> out = new ArrayList<>();
        out.add(root.resolve("README.md"));
        out.addAll(glob(root.resolve("docs"), dir -> dir, ".md"));
        out.addAll(glob(root, dir -> dir.resolve("README.md"), null));
        out.addAll(glob(root.resolve("clients"), dir -> dir.resolve("README.md"), null));
        return out.stream().filter(Files::isRegularFile).toList();
    }

    /**
     * The words of a text as GNU {@code wc -w} counts them: runs of characters that are not white space,
     * the no-break spaces included (coreutils counts them as white space too).
     */
    static long words(String text) {
        long words = 0;
        boolean inWord = false;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            boolean space = Character.isWhitespace(c) || c == '\u00a0' || c == '\u2007' || c == '\u202f' || c == '\u2060';
            if (!space && !inWord) {
                words++;
            }
            inWord = !space;
            i += Character.charCount(c);
        }
        return words;
    }

    /**
     * Every relative link of {@code file} that does not resolve: a path that is missing or outside
     * {@code root}, or a {@code #fragment} that names no heading of the Markdown file it points into.
     */
    static List<String> brokenLinks(Path root, Path file) {
        List<String> broken = new ArrayList<>();
        for (String target : links(read(file))) {
            if (SCHEME.matcher(target).find()) {
                continue;
            }
            int hash = target.indexOf('#');
            String path = hash < 0 ? target : target.substring(0, hash);
            String fragment = hash < 0 ? "" : target.substring(hash + 1);
            Path resolved = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
            if (!resolved.startsWith(root.normalize())) {
                broken.add(target + ": points outside the repository");
            } else if (!Files.exists(resolved)) {
                broken.add(target + ": no such file");
            } else if (!fragment.isEmpty() && resolved.toString().endsWith(".md")
                    && !anchors(read(resolved)).contains(fragment)) {
                broken.add(target + ": no heading with the anchor #" + fragment + " in " + root.relativize(resolved));
            }
        }
        return broken;
    }

    /** The link targets of a Markdown text, outside code blocks and code spans. */
    static List<String> links(String markdown) {
        List<String> out = new ArrayList<>();
        for (String line : prose(markdown)) {
            Matcher m = LINK.matcher(CODE_SPAN.matcher(line).replaceAll(""));
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /** The anchors GitHub gives a Markdown text's headings: lower case, punctuation dropped, spaces as hyphens. */
    static Set<String> anchors(String markdown) {
        Set<String> out = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : prose(markdown)) {
            Matcher m = HEADING.matcher(line);
            if (m.matches()) {
                String slug = m.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{M}\\p{N}_ -]", "").replace(' ', '-');
                int repeat = seen.merge(slug, 1, Integer::sum) - 1;
                out.add(repeat == 0 ? slug : slug + "-" + repeat);
            }
        }
        return out;
    }

    /** The lines of a Markdown text outside fenced code blocks. */
    private static List<String> prose(String markdown) {
        List<String> out = new ArrayList<>();
        boolean fenced = false;
        for (String line : markdown.split("\n", -1)) {
            if (line.stripLeading().startsWith("```")) {
                fenced = !fenced;
            } else if (!fenced) {
                out.add(line);
            }
        }
        return out;
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The shell's {@code dir/*}: non-hidden entries, sorted, mapped (a directory to its README) or filtered by suffix. */
    private static List<Path> glob(Path dir, UnaryOperator<Path> map, String suffix) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(p -> !p.getFileName().toString().startsWith("."))
                    .filter(p -> suffix == null ? Files.isDirectory(p) : p.getFileName().toString().endsWith(suffix))
                    .sorted()
                    .map(map)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
