package datalake.bench;

import java.io.PrintStream;
import java.util.Locale;

/**
 * What {@link IngestBenchmark} prints and writes: its run's CPU, in seconds, split by process and by kind of
 * thread, with the rounds' wall times and counts.
 */
record IngestFigures(double jvm, double moto, double dynamo, double handler, double eventSourceMapping,
        double watch, double jit, double gc, double toSeconds) {
    /**
     * @param handlerCpu     nanoseconds the pollers' threads spent in the handler
     * @param pollerCpu      nanoseconds of the pollers' threads in all
     * @param headThreadsCpu nanoseconds of the ingesters' own pools (their HEADs and commits)
     * @param ticks          clock ticks a second of /proc's CPU times
     */
    static IngestFigures of(IngestBenchmark.Tally tally, long handlerCpu, long pollerCpu, long headThreadsCpu, long ticks) {
        double toSeconds = 1.0 / ticks;
        return new IngestFigures(tally.cpu.self() * toSeconds, tally.cpu.moto() * toSeconds, tally.cpu.dynamo() * toSeconds,
                (handlerCpu + headThreadsCpu) / 1e9,
                Math.max(0, pollerCpu / 1e9 - handlerCpu / 1e9), tally.watchCpu / 1e9,
                tally.threadsCpu.get(JvmThreadCpu.Kind.JIT) * toSeconds,
                tally.threadsCpu.get(JvmThreadCpu.Kind.GC) * toSeconds, toSeconds);
    }

    /** This JVM less the pollers' SQS calls (Lambda's event source mapping) and the benchmark's table counts. */
    double ours() {
        return jvm - eventSourceMapping - watch;
    }

    /** Our part of the CPU of all three processes. */
    double share() {
        return ours() / (jvm + moto + dynamo);
    }

    void print(PrintStream out, int files, IngestBenchmark.Tally tally, String deadLetters, CallCounts calls) {
        out.printf(Locale.ROOT, "  push:   %d files in %.1f s (%.0f files/s); CPU s: this JVM %.1f, moto %.1f, dynalite %.1f%n",
                files, tally.pushSeconds, files / tally.pushSeconds, tally.pushCpu.self() * toSeconds,
                tally.pushCpu.moto() * toSeconds, tally.pushCpu.dynamo() * toSeconds);
        out.printf(Locale.ROOT, "  ingest: %d files in %.1f s = %.0f files/s, %d records in the table"
                + " (%d messages acknowledged, %d handed back, %s dead letters)%n",
                files, tally.seconds, files / tally.seconds, tally.items, tally.acknowledged, tally.retried, deadLetters);
        out.printf(Locale.ROOT, "  CPU s during ingest (%.1f s wall x %d cores): this JVM %.1f (handler threads %.1f,"
                        + " pollers' receive/delete %.1f, the benchmark's table counts %.1f, JIT compilers %.1f, GC %.1f,"
                        + " other threads %.1f), moto %.1f, dynalite %.1f%n",
                tally.seconds, Runtime.getRuntime().availableProcessors(), jvm, handler, eventSourceMapping, watch, jit,
                gc, jvm - handler - eventSourceMapping - watch - jit - gc, moto, dynamo);
        out.printf(Locale.ROOT, "  the ingester's AWS calls per batch of 10 files: %.1f: %s%n",
                calls.total(files / 10.0), calls.per(files / 10.0));
        out.printf(Locale.ROOT, "  our CPU share (this JVM less the pollers' SQS calls and the table counts, of all three processes): %.0f%%"
                + " (target < 30%%); %.2f ms of our CPU per file (handler threads %.2f, JIT %.2f, GC %.2f)%n",
                100 * share(), 1000 * ours() / files, 1000 * handler / files, 1000 * jit / files, 1000 * gc / files);
    }

    String json(int files, int pollers, int backlog, IngestBenchmark.Tally tally, CallCounts calls) {
        return String.format(Locale.ROOT,
                "{\"ingest_files\":%d,\"ingest_pollers\":%d,\"ingest_backlog\":%d,\"ingest_seconds\":%s,\"ingest_files_per_s\":%s,"
                        + "\"ingest_push_files_per_s\":%s,\"ingest_cpu_s_jvm\":%s,\"ingest_cpu_s_handler\":%s,"
                        + "\"ingest_cpu_s_pollers\":%s,\"ingest_cpu_s_moto\":%s,\"ingest_cpu_s_dynalite\":%s,"
                        + "\"ingest_cpu_share_ours_pct\":%s,\"ingest_cpu_ms_per_file_ours\":%s,"
                        + "\"ingest_cpu_s_jit\":%s,\"ingest_cpu_s_gc\":%s,\"ingest_cpu_ms_per_file_handler\":%s,"
                        + "\"ingest_cpu_s_watch\":%s,\"ingest_aws_calls_per_batch\":%s,\"ingest_jvm_flags\":\"%s\"}",
                files, pollers, backlog, BenchStats.number(tally.seconds), BenchStats.number(files / tally.seconds),
                BenchStats.number(files / tally.pushSeconds), BenchStats.number(jvm), BenchStats.number(handler),
                BenchStats.number(eventSourceMapping), BenchStats.number(moto), BenchStats.number(dynamo),
                BenchStats.number(100 * share()), String.format(Locale.ROOT, "%.3f", 1000 * ours() / files),
                BenchStats.number(jit), BenchStats.number(gc), String.format(Locale.ROOT, "%.3f", 1000 * handler / files),
                BenchStats.number(watch), BenchStats.number(calls.total(files / 10.0)), IngestBenchmark.jvmFlags());
    }
}
