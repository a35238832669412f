package datalake.tools;

import java.io.Console;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A progress line on standard error, redrawn in place on a terminal ({@code \r}), a line at a time
 * every few seconds otherwise (a log file stays readable). Standard output is left to the results.
 */
final class Progress implements AutoCloseable {
    private final PrintStream out;
    private final boolean terminal;
    private final Supplier<String> line;
    private final ScheduledExecutorService timer;
    private int width;

    private Progress(PrintStream out, boolean terminal, Supplier<String> line, long periodMillis) {
        this.out = out;
        this.terminal = terminal;
        this.line = line;
        this.timer = periodMillis <= 0 ? null : Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "progress");
            thread.setDaemon(true);
            return thread;
        });
        if (timer != null) {
            // Never cancelled on its own: close() shuts the timer down.
            var unused = timer.scheduleAtFixedRate(this::draw, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
        }
    }

    /** On standard error: twice a second on a terminal, every five seconds otherwise. */
    static Progress toStandardError(Supplier<String> line) {
        boolean terminal = isTerminal();
        return new Progress(System.err, terminal, line, terminal ? 500 : 5000);
    }

    /**
     * Whether standard input and output are a terminal. From JDK 22 {@code System.console()} is never null,
     * so it is asked {@code isTerminal()}, a JDK 22 method this code (built for 21) finds at run time.
     */
    @SuppressWarnings("SystemConsoleNull") // handled: null (JDK 21, no terminal) and isTerminal() (22+)
    private static boolean isTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException e) {
            return true; // JDK 21: a console exists only for a terminal
        }
    }

    /** Draws only when {@link #draw()} is called (tests). */
    static Progress manual(PrintStream out, Supplier<String> line) {
        return new Progress(out, false, line, 0);
    }

    synchronized void draw() {
        String text = line.get();
        if (terminal) {
            out.print('\r' + text + " ".repeat(Math.max(0, width - text.length())));
            width = text.length();
        } else {
            out.println(text);
        }
        out.flush();
    }

    /** A bar of {@code done} out of {@code total}, or a moving marker when the total is not known yet. */
    static String bar(long done, long total) {
        int cells = 24;
        if (total <= 0) {
            int at = (int) (done / 100 % cells);
            return "[" + " ".repeat(at) + "#" + " ".repeat(cells - at - 1) + "]";
        }
        int full = (int) Math.min(cells, done * cells / total);
        return "[" + "#".repeat(full) + ".".repeat(cells - full) + "] " + String.format(Locale.ROOT, "%3d%%",
                Math.min(100, done * 100 / total));
    }

    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
        draw();
        if (terminal) {
            out.println();
        }
    }
}
