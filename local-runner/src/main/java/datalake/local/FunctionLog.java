package datalake.local;

import datalake.lambda.JsonLog;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;

/**
 * Where the functions' log lines go in the local runner: a file, as CloudWatch Logs would hold them, so
 * that the console stays readable under load (one line per request and per message made 125 MB in eight
 * minutes). Faults (WARN and ERROR lines) go to the console as well. The file is bounded: past
 * {@code maxBytes} it becomes {@code <file>.1} (replacing the previous one) and a new file begins.
 */
final class FunctionLog implements AutoCloseable {
    static final long MAX_BYTES = 20L * 1024 * 1024;

    private final Path file;
    private final Path previous;
    private final long maxBytes;
    private final PrintStream console;
    private BufferedWriter out;
    private long written;

    FunctionLog(Path file, long maxBytes, PrintStream console) {
        this.file = file.toAbsolutePath();
        this.previous = this.file.resolveSibling(this.file.getFileName() + ".1");
        this.maxBytes = maxBytes;
        this.console = console;
        try {
            Files.createDirectories(this.file.getParent());
            this.out = Files.newBufferedWriter(this.file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the functions' log to " + this.file + ": " + e.getMessage(), e);
        }
    }

    Path file() {
        return file;
    }

    /** A function's log writer whose lines come here. */
    JsonLog writer(String logger) {
        return new JsonLog(logger, this::line, Clock.systemUTC());
    }

    synchronized void line(String line) {
        if (line.contains("\"level\":\"ERROR\"") || line.contains("\"level\":\"WARN\"")) {
            console.println(line);
        }
        try {
            if (written + line.length() + 1 > maxBytes) {
                roll();
            }
            out.write(line);
            out.newLine();
            out.flush();
            written += line.length() + 1;
        } catch (IOException e) {
            console.println("local: the functions' log " + file + " cannot be written (" + e.getMessage() + "): " + line);
        }
    }

    private void roll() throws IOException {
        out.close();
        Files.move(file, previous, StandardCopyOption.REPLACE_EXISTING);
        out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        written = 0;
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            // the lines written are on disk; nothing else to do
        }
    }
}
