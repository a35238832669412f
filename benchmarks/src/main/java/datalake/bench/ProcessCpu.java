package datalake.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Clock ticks of user plus system time of this JVM, moto and dynalite, from /proc/&lt;pid&gt;/stat
 * (fields 14 and 15, and 16, 17 for reaped children).
 */
record ProcessCpu(long self, long moto, long dynamo) {
    static final ProcessCpu ZERO = new ProcessCpu(0, 0, 0);

    static ProcessCpu read(List<Long> motoPids, long dynamoPid) throws IOException {
        long moto = 0;
        for (long pid : motoPids) {
            moto += ticks(pid);
        }
        return new ProcessCpu(ticks(ProcessHandle.current().pid()), moto, ticks(dynamoPid));
    }

    ProcessCpu minus(ProcessCpu other) {
        return new ProcessCpu(self - other.self, moto - other.moto, dynamo - other.dynamo);
    }

    ProcessCpu plus(ProcessCpu other) {
        return new ProcessCpu(self + other.self, moto + other.moto, dynamo + other.dynamo);
    }

    /** Processes descended from this JVM whose command line mentions {@code word}. */
    static List<Long> pidsOf(String word) {
        return ProcessHandle.current().descendants()
                .filter(p -> p.info().commandLine().orElse("").contains(word))
                .map(ProcessHandle::pid).toList();
    }

    private static long ticks(long pid) throws IOException {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (!Files.exists(stat)) {
            return 0;
        }
        String text = Files.readString(stat);
        String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ", -1);
        // fields[0] is field 3 (state): utime, stime, cutime, cstime are fields 14 to 17.
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]) + Long.parseLong(fields[13])
                + Long.parseLong(fields[14]);
    }
}
