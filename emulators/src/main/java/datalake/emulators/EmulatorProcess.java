package datalake.emulators;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * An emulator run as a child process serving HTTP on 127.0.0.1 (moto, dynalite): started on a chosen or
 * a free port (refused when another process holds it) and waited for until it answers, its last lines of
 * output kept for the error that names it, and ended with its descendants by {@link #stop()}, or by a JVM
 * shutdown hook if nobody called it (a JVM killed outright runs none: the launchers, dynalite.js and
 * moto_server.py, exit when their stdin ends).
 * {@link #stop()} then {@link #start()} brings it back, empty, on the same port.
 */
final class EmulatorProcess {
    private static final int OUTPUT_LINES_KEPT = 40;
    private static final int PORT_ATTEMPTS = 3;

    private final String name;
    private final IntFunction<List<String>> command;
    private final Map<String, String> environment;
    private final String healthPath;
    private final Duration startupTimeout;
    private final int requestedPort;
    private final Deque<String> output = new ArrayDeque<>();
    private Process process;
    private Thread shutdownHook;
    private int port;

    /**
     * @param name what the emulator is called in errors ("moto_server", "dynalite")
     * @param command the command line for a port
     * @param environment added to the child's environment
     * @param healthPath a path that answers HTTP once the emulator serves
     * @param port the port, or 0 for a free one (chosen at the first start, kept for restarts)
     * @param startupTimeout how long {@link #start()} waits for an answer
     */
    EmulatorProcess(String name, IntFunction<List<String>> command, Map<String, String> environment, String healthPath,
            int port, Duration startupTimeout) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not between 0 and 65535.");
        }
        this.name = name;
        this.command = command;
        this.environment = Map.copyOf(environment);
        this.healthPath = healthPath;
        this.requestedPort = port;
        this.port = port;
        this.startupTimeout = startupTimeout;
    }

    /**
     * Starts the process and waits until it answers; does nothing when it runs already.
     *
     * @throws EmulatorStartException when it exits or does not answer within the timeout
     */
    synchronized void start() {
        if (process != null && process.isAlive()) {
            return;
        }
        process = null;
        if (port != 0) {
            launch(port);
            return;
        }
        // A free port can be taken between choosing it and the emulator binding it; then try another.
        for (int attempt = 1; ; attempt++) {
            try {
                launch(freePort());
                return;
            } catch (EmulatorStartException e) {
                boolean portTaken = e.getMessage().contains("already in use") || e.getMessage().contains("EADDRINUSE");
                if (attempt == PORT_ATTEMPTS || !portTaken) {
                    throw e;
                }
            }
        }
    }

    private void launch(int candidate) {
        // Another program answering on the port would pass the readiness check below in its place.
        if (!free(candidate)) {
            throw new EmulatorStartException("port " + candidate + " on 127.0.0.1 is already in use by another process, so "
                    + name + " cannot serve there" + (requestedPort == 0 ? "." : "; stop that process, or give " + name
                    + " another port."));
        }
        ProcessBuilder builder = new ProcessBuilder(command.apply(candidate)).redirectErrorStream(true);
        builder.environment().putAll(environment);
        synchronized (output) {
            output.clear();
        }
        Process started;
        try {
            started = builder.start();
        } catch (IOException e) {
            throw new EmulatorStartException("could not run " + name + " (" + builder.command().get(0) + "): " + e, e);
        }
        Thread drain = new Thread(() -> drain(started), name + "-output-" + candidate);
        drain.setDaemon(true);
        drain.start();
        Thread hook = new Thread(() -> destroy(started), name + "-shutdown-" + candidate);
        Runtime.getRuntime().addShutdownHook(hook);

        long deadline = System.nanoTime() + startupTimeout.toNanos();
        while (!answers(candidate)) {
            if (!started.isAlive()) {
                removeHook(hook);
                waitForDrain(drain);
                throw new EmulatorStartException(name + " exited with code " + started.exitValue()
                        + " before answering on port " + candidate
                        + (requestedPort == 0 ? "" : " (is another process using it?)") + "; its last output:\n" + lastOutput());
            }
            if (System.nanoTime() > deadline) {
                destroy(started);
                removeHook(hook);
                throw new EmulatorStartException(name + " did not answer on http://127.0.0.1:" + candidate
                        + " within " + startupTimeout.toSeconds() + " s; its last output:\n" + lastOutput());
            }
            sleep(50);
        }
        process = started;
        shutdownHook = hook;
        port = candidate;
    }

    /** Ends the process and its descendants; its state is gone. Does nothing when it is not running. */
    synchronized void stop() {
        if (process == null) {
            return;
        }
        destroy(process);
        removeHook(shutdownHook);
        process = null;
        shutdownHook = null;
    }

    synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** The exit status of a process that was started and has exited (killed, or failed) without {@link #stop()}. */
    synchronized Optional<Integer> exitValue() {
        return process == null || process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
    }

    /** The process id of the running process. */
    synchronized long pid() {
        if (process == null) {
            throw new IllegalStateException(name + " is not running; call start() first.");
        }
        return process.pid();
    }

    /** The port: the requested one, else the one chosen by the first start; 0 before that. */
    synchronized int port() {
        return port;
    }

    /** {@code http://127.0.0.1:<port>}. */
    synchronized URI endpoint() {
        if (port == 0) {
            throw new IllegalStateException(name + " has no port yet; call start() first.");
        }
        return URI.create("http://127.0.0.1:" + port);
    }

    /** The last lines the process printed, for diagnosing failures. */
    String lastOutput() {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    /** {@code resource} (a file of this package) as a file a child process can run, written once per JVM. */
    static Path resourceFile(String resource, String prefix, String suffix) {
        try (InputStream in = EmulatorProcess.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new EmulatorStartException(resource + " is not on the classpath; build emulators with Maven.");
            }
            Path file = Files.createTempFile(prefix, suffix);
            file.toFile().deleteOnExit();
            Files.write(file, in.readAllBytes());
            return file;
        } catch (IOException e) {
            throw new EmulatorStartException("could not write " + resource + " to a temporary file: " + e, e);
        }
    }

    /** Whether the port can be bound on 127.0.0.1, as the emulators bind it (address reuse on). */
    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new EmulatorStartException("no free TCP port on 127.0.0.1: " + e, e);
        }
    }

    private void drain(Process source) {
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(source.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                synchronized (output) {
                    if (output.size() == OUTPUT_LINES_KEPT) {
                        output.removeFirst();
                    }
                    output.addLast(line);
                }
            }
        } catch (IOException e) {
            // The process ended; what was read is kept.
        }
    }

    private boolean answers(int candidate) {
        try {
            HttpURLConnection connection = (HttpURLConnection)
                    URI.create("http://127.0.0.1:" + candidate + healthPath).toURL().openConnection();
            connection.setConnectTimeout(500);
            connection.setReadTimeout(2_000);
            int status = connection.getResponseCode();
            connection.disconnect();
            return status > 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static void destroy(Process target) {
        // Collected first: once the parent is gone its children are re-parented and no longer listed.
        List<ProcessHandle> descendants = target.descendants().toList();
        descendants.forEach(ProcessHandle::destroy);
        target.destroy();
        try {
            if (!target.waitFor(10, TimeUnit.SECONDS)) {
                target.destroyForcibly();
                target.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            target.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The JVM is shutting down and runs the hook itself.
        }
    }

    private static void waitForDrain(Thread drain) {
        try {
            drain.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmulatorStartException("interrupted while waiting for " + name + " to answer", e);
        }
    }
}
