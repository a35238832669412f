package datalake.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads a flight recording of part 2 of scripts/bench.sh (scripts/profile-ingest.sh makes one) and prints
 * where the ingester's CPU goes ({@link ProfileTally}): the handler's samples by AWS SDK operation, and
 * the JIT's compilations by compiler and by whose code they compile. Samples see threads running Java
 * code only (not in system calls), so the shares are of the handler's Java time.
 *
 * <p>usage: IngestProfile --jfr F
 */
public final class IngestProfile {
    private IngestProfile() {
    }

    public static void main(String[] args) throws IOException {
        Map<String, String> options = Options.parse(args);
        if (!options.containsKey("jfr")) {
            throw new IllegalArgumentException("usage: IngestProfile --jfr F");
        }
        ProfileTally tally = new ProfileTally();
        long cut = read(Path.of(options.get("jfr")), tally);
        System.out.print(tally.report());
        if (cut > 0) {
            System.out.printf("(%d samples' stacks were cut at the recording's stack depth: record with a larger"
                    + " -XX:FlightRecorderOptions:stackdepth)%n", cut);
        }
    }

    /** Adds the recording's samples and compilations to the tally; returns how many stacks were cut short. */
    static long read(Path recording, ProfileTally tally) throws IOException {
        long cut = 0;
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                switch (event.getEventType().getName()) {
                    case "jdk.ExecutionSample" -> {
                        RecordedThread thread = event.getThread("sampledThread");
                        RecordedStackTrace stack = event.getStackTrace();
                        if (thread != null && stack != null) {
                            cut += stack.isTruncated() ? 1 : 0;
                            tally.sample(thread.getJavaName() == null ? "" : thread.getJavaName(), frames(stack));
                        }
                    }
                    case "jdk.Compilation" -> {
                        RecordedMethod method = event.getValue("method");
                        if (method != null && event.getBoolean("succeded")) {
                            tally.compilation(method.getType().getName(), event.getShort("compileLevel"),
                                    event.getDuration().toNanos());
                        }
                    }
                    default -> {
                    }
                }
            }
        }
        return cut;
    }

    private static List<String> frames(RecordedStackTrace stack) {
        List<String> frames = new ArrayList<>(stack.getFrames().size());
        for (RecordedFrame frame : stack.getFrames()) {
            RecordedMethod method = frame.getMethod();
            frames.add(method == null ? "" : method.getType().getName() + "." + method.getName());
        }
        return frames;
    }
}
