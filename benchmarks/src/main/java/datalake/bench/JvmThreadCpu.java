package datalake.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * This JVM's CPU ticks by kind of thread, from /proc/self/task/&lt;tid&gt;/stat and the thread's name
 * (Linux keeps the first 15 characters): what the JIT compilers and the garbage collector spend beside
 * the handler. A thread that ends takes its ticks with it, so read before and after a phase whose
 * threads outlive it (the ingesters' HEAD pools, the JVM's own threads).
 */
record JvmThreadCpu(Map<Kind, Long> ticks) {
    enum Kind {
        /** The C1 and C2 compiler threads. */
        JIT,
        /** GC workers, G1's concurrent threads, and the VM thread that runs the pauses. */
        GC,
        /** The ingesters' HEAD and latest-table pools ("ingester-N"). */
        INGESTER_POOL,
        OTHER
    }

    static JvmThreadCpu read() {
        Map<Kind, Long> ticks = new EnumMap<>(Kind.class);
        for (Kind kind : Kind.values()) {
            ticks.put(kind, 0L);
        }
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ", -1);
                    ticks.merge(kindOf(name), Long.parseLong(fields[11]) + Long.parseLong(fields[12]), Long::sum);
                } catch (NoSuchFileException ended) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new JvmThreadCpu(ticks);
    }

    static Kind kindOf(String threadName) {
        if (threadName.contains("CompilerThre")) {
            return Kind.JIT;
        }
        if (threadName.startsWith("GC Thread") || threadName.startsWith("G1 ") || threadName.equals("VM Thread")) {
            return Kind.GC;
        }
        if (threadName.startsWith("ingester-")) {
            return Kind.INGESTER_POOL;
        }
        return Kind.OTHER;
    }

    JvmThreadCpu minus(JvmThreadCpu before) {
        Map<Kind, Long> difference = new EnumMap<>(Kind.class);
        ticks.forEach((kind, value) -> difference.put(kind, value - before.ticks.getOrDefault(kind, 0L)));
        return new JvmThreadCpu(difference);
    }

    JvmThreadCpu plus(JvmThreadCpu other) {
        Map<Kind, Long> sum = new EnumMap<>(Kind.class);
        ticks.forEach((kind, value) -> sum.put(kind, value + other.ticks.getOrDefault(kind, 0L)));
        return new JvmThreadCpu(sum);
    }

    static JvmThreadCpu zero() {
        Map<Kind, Long> ticks = new EnumMap<>(Kind.class);
        for (Kind kind : Kind.values()) {
            ticks.put(kind, 0L);
        }
        return new JvmThreadCpu(ticks);
    }

    long get(Kind kind) {
        return ticks.getOrDefault(kind, 0L);
    }
}
