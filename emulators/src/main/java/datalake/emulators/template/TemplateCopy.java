package datalake.emulators.template;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A copy of template.yaml with some of its text changed, for a test that needs the stack with another
 * value (a shorter visibility timeout, another maxReceiveCount or batch size): the change is made where
 * the template makes it, so the local stack follows it as a deploy would. Each replaced text must occur
 * exactly once, so a change that no longer applies fails instead of passing silently.
 */
public final class TemplateCopy {
    private final String text;

    private TemplateCopy(String text) {
        this.text = text;
    }

    /** The repository's template.yaml. */
    public static TemplateCopy ofRepositoryTemplate() {
        try {
            return new TemplateCopy(Files.readString(Repository.template(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + Repository.template() + ": " + e, e);
        }
    }

    /** This copy with {@code old} (which must occur exactly once) replaced. */
    public TemplateCopy replace(String old, String replacement) {
        int at = text.indexOf(old);
        if (at < 0 || text.indexOf(old, at + 1) >= 0) {
            throw new TemplateException("template.yaml holds \"" + old + "\" " + (at < 0 ? "nowhere" : "more than once")
                    + "; the test's change no longer applies.");
        }
        return new TemplateCopy(text.replace(old, replacement));
    }

    /** Writes the copy into a temporary file (deleted when the JVM exits) and returns it. */
    public Path write() {
        try {
            Path file = Files.createTempFile("template-", ".yaml");
            file.toFile().deleteOnExit();
            Files.writeString(file, text, StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("could not write a copy of template.yaml: " + e, e);
        }
    }
}
