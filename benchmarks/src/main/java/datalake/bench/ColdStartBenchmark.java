package datalake.bench;

import datalake.emulators.Emulators;
import datalake.emulators.DatalakeStack;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Cold starts of both deployable jars (scripts/bench.sh, part 4): each handler in a fresh JVM, started
 * {@code --runs} times (the two handlers alternate), with the JAVA_TOOL_OPTIONS the template sets and
 * the configuration Lambda would give it, against moto and dynalite. From the parent's clock:
 * process start to the handler constructed ("ready"), and to the first invocation's answer (the
 * ingester: one S3 notification, HEAD, write, report; the query: a one-day files query). Also the
 * child's peak RSS (VmHWM). Each run also starts each handler primed: the SnapStart priming its
 * snapshot hook would run, called between ready and the invocation (no CRaC JVM runs here, so no
 * restore is measured), which times the priming and the first invocation after it.
 *
 * <p>{@code --ingester-java-tool-options} gives the ingester flags of its own (the template sets them on
 * the ingester function when they differ from Globals'). {@code --compare "label|ingester jar|query
 * jar|JAVA_TOOL_OPTIONS[|the ingester's]"} adds a second configuration (other jars, other flags),
 * started alternately with the first so that both see the same load on a shared machine; only the
 * first goes to {@code --json}.
 *
 * <p>usage: ColdStartBenchmark --ingester-jar J --query-jar J --java-tool-options "..."
 * [--ingester-java-tool-options "..."] [--runs N] [--json F] [--compare "label|J|J|options[|options]"]
 */
public final class ColdStartBenchmark {
    private static final long START = 1_704_067_200_000L;

    private ColdStartBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = Options.parse(args);
        Path ingesterJar = Path.of(options.get("ingester-jar"));
        Path queryJar = Path.of(options.get("query-jar"));
        String toolOptions = options.getOrDefault("java-tool-options", "");
        String ingesterOptions = options.getOrDefault("ingester-java-tool-options", toolOptions);
        int runs = Integer.parseInt(options.getOrDefault("runs", "10"));

        Emulators aws = Emulators.shared();
        try {
            DatalakeStack stack = DatalakeStack.unique(aws, "cold");
            String metadata = "{\"version\":0,\"start\":" + START + ",\"end\":null,\"where\":\"host-1\",\"what\":\"cold\","
                    + "\"id\":\"coldfile1\",\"hash\":\"0123456789abcdef0123456789abcdef\",\"work_id\":null,\"path\":\"/cold/1\"}";
            aws.s3().putObject(r -> r.bucket(stack.bucket()).key("coldfile1/data").metadata(Map.of("datalake", metadata)),
                    RequestBody.fromString("cold"));
            Path body = Files.createTempFile("coldstart", ".json");
            Files.writeString(body, notification(aws, stack));

            // The ingester's environment as the template gives it; the query reads its own subset of it.
            Map<String, String> env = new LinkedHashMap<>(stack.ingester().environment());
            env.put("DATALAKE_S3_PATH_STYLE", "true");
            String query = "what=cold&start=" + START + "&end=" + (START + 86_399_999L);
            List<Variant> variants = new ArrayList<>();
            variants.add(new Variant("measured", ingesterJar, queryJar, toolOptions, ingesterOptions));
            if (options.containsKey("compare")) {
                String[] parts = options.get("compare").split("\\|", -1);
                variants.add(new Variant(parts[0], Path.of(parts[1]), Path.of(parts[2]), parts[3],
                        parts.length > 4 ? parts[4] : parts[3]));
            }
            for (Variant v : variants) {
                // One unmeasured start of each: the page cache holds the jars afterwards, as on a warm host.
                run(v.ingester(body, false), v.env(env, v.ingesterOptions), "datalake-ingester");
                run(v.query(query, false), v.env(env, v.options), "datalake-query");
            }
            for (int i = 0; i < runs; i++) {
                for (Variant v : variants) {
                    v.ingesterRuns.add(run(v.ingester(body, false), v.env(env, v.ingesterOptions), "datalake-ingester"));
                    v.queryRuns.add(run(v.query(query, false), v.env(env, v.options), "datalake-query"));
                    v.ingesterPrimed.add(run(v.ingester(body, true), v.env(env, v.ingesterOptions), "datalake-ingester"));
                    v.queryPrimed.add(run(v.query(query, true), v.env(env, v.options), "datalake-query"));
                }
            }
            System.out.printf(Locale.ROOT, "cold start, %d fresh JVMs per handler, %d cores%n",
                    runs, Runtime.getRuntime().availableProcessors());
            StringBuilder json = new StringBuilder();
            for (Variant v : variants) {
                System.out.printf(Locale.ROOT, " %s: JAVA_TOOL_OPTIONS=\"%s\", the ingester's \"%s\"%n", v.label,
                        v.options, v.ingesterOptions);
                json.setLength(0);
                json.append('{');
                report("ingester", v.ingesterRuns, v.ingesterPrimed, v.ingesterJar, json);
                json.append(',');
                report("query", v.queryRuns, v.queryPrimed, v.queryJar, json);
                json.append('}');
                if (v == variants.get(0) && options.containsKey("json")) {
                    Files.writeString(Path.of(options.get("json")), json);
                }
            }
        } finally {
            aws.close();
        }
    }

    private static String notification(Emulators aws, DatalakeStack stack) {
        for (int attempt = 0; attempt < 20; attempt++) {
            List<Message> messages = aws.sqs().receiveMessage(r -> r.queueUrl(stack.ingestQueueUrl())
                    .maxNumberOfMessages(1).waitTimeSeconds(1)).messages();
            if (!messages.isEmpty()) {
                return messages.get(0).body();
            }
        }
        throw new IllegalStateException("moto delivered no notification for the cold-start object in 20 s");
    }

    /** Times from the process's start; {@code primedMs} is NaN in a run without priming. */
    private record Sample(double readyMs, double primedMs, double firstResponseMs, double peakRssMb) {
    }

    /** Jars and flags to start; the child's class path is a jar plus this class's directory. */
    private static final class Variant {
        final String label;
        final Path ingesterJar;
        final Path queryJar;
        final String options;
        final String ingesterOptions;
        final List<Sample> ingesterRuns = new ArrayList<>();
        final List<Sample> queryRuns = new ArrayList<>();
        final List<Sample> ingesterPrimed = new ArrayList<>();
        final List<Sample> queryPrimed = new ArrayList<>();

        Variant(String label, Path ingesterJar, Path queryJar, String options, String ingesterOptions) {
            this.label = label;
            this.ingesterJar = ingesterJar;
            this.queryJar = queryJar;
            this.options = options;
            this.ingesterOptions = ingesterOptions;
        }

        List<String> ingester(Path body, boolean primed) throws Exception {
            return List.of(java(), "-cp", ingesterJar + File.pathSeparator + here(), ColdStartIngester.class.getName(),
                    body.toString(), primed ? "primed" : "unprimed");
        }

        List<String> query(String rawQuery, boolean primed) throws Exception {
            return List.of(java(), "-cp", queryJar + File.pathSeparator + here(), ColdStartQuery.class.getName(),
                    "/v0/archive/files/", rawQuery, primed ? "primed" : "unprimed");
        }

        Map<String, String> env(Map<String, String> common, String toolOptions) {
            Map<String, String> env = new LinkedHashMap<>(common);
            env.put("JAVA_TOOL_OPTIONS", toolOptions);
            return env;
        }

        private static String java() {
            return Path.of(System.getProperty("java.home"), "bin", "java").toString();
        }

        private static String here() throws Exception {
            return Path.of(ColdStartBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        }
    }

    private static Sample run(List<String> command, Map<String, String> env, String function)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().keySet().removeIf(k -> k.startsWith("AWS_") || k.startsWith("DATALAKE_") || k.startsWith("JAVA_"));
        builder.environment().putAll(env);
        builder.environment().put("AWS_LAMBDA_FUNCTION_NAME", function);
        long started = System.nanoTime();
        Process process = builder.start();
        double ready = Double.NaN;
        double primed = Double.NaN;
        double responded = Double.NaN;
        double rss = Double.NaN;
        List<String> seen = new ArrayList<>();
        try (BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line = err.readLine(); line != null; line = err.readLine()) {
                double at = (System.nanoTime() - started) / 1e6;
                seen.add(line);
                if (line.equals(ColdStartOutput.PREFIX + "ready")) {
                    ready = at;
                } else if (line.startsWith(ColdStartOutput.PREFIX + "primed")) {
                    primed = at;
                } else if (line.startsWith(ColdStartOutput.PREFIX + "responded")) {
                    responded = at;
                    if (!line.endsWith("failures=0") && !line.contains("status=200")) {
                        throw new IllegalStateException(function + " answered badly: " + line);
                    }
                } else if (line.startsWith(ColdStartOutput.PREFIX + "peak_rss_kb=")) {
                    rss = Long.parseLong(line.substring((ColdStartOutput.PREFIX + "peak_rss_kb=").length())) / 1024.0;
                }
            }
        }
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0 || Double.isNaN(responded)) {
            process.destroyForcibly();
            throw new IllegalStateException(function + " did not start and answer: " + String.join("\n", seen));
        }
        return new Sample(ready, primed, responded, rss);
    }

    private static void report(String name, List<Sample> samples, List<Sample> primedSamples, Path jar,
            StringBuilder json) {
        double[] ready = samples.stream().mapToDouble(Sample::readyMs).toArray();
        double[] first = samples.stream().mapToDouble(Sample::firstResponseMs).toArray();
        double[] rss = samples.stream().mapToDouble(Sample::peakRssMb).toArray();
        double[] invocation = samples.stream().mapToDouble(r -> r.firstResponseMs() - r.readyMs()).toArray();
        double[] priming = primedSamples.stream().mapToDouble(r -> r.primedMs() - r.readyMs()).toArray();
        double[] primedInvocation = primedSamples.stream().mapToDouble(r -> r.firstResponseMs() - r.primedMs()).toArray();
        double jarMb = jar.toFile().length() / 1e6;
        System.out.printf(Locale.ROOT, "  %-8s ready: median %6.0f ms (min %4.0f, max %4.0f); first response: median %6.0f ms"
                        + " (min %4.0f, max %4.0f); peak RSS median %5.1f MB; jar %.1f MB%n",
                name, BenchStats.median(ready), BenchStats.min(ready), BenchStats.max(ready),
                BenchStats.median(first), BenchStats.min(first), BenchStats.max(first), BenchStats.median(rss), jarMb);
        System.out.printf(Locale.ROOT, "  %-8s first invocation: median %4.0f ms unprimed; primed %4.0f ms (min %4.0f, max %4.0f)"
                        + " after a priming of %4.0f ms%n",
                name, BenchStats.median(invocation), BenchStats.median(primedInvocation), BenchStats.min(primedInvocation),
                BenchStats.max(primedInvocation), BenchStats.median(priming));
        json.append(String.format(Locale.ROOT, "\"init_ms_%1$s\":%2$s,\"init_ms_%1$s_min\":%3$s,\"init_ms_%1$s_max\":%4$s,"
                        + "\"first_response_ms_%1$s\":%5$s,\"first_response_ms_%1$s_min\":%6$s,\"first_response_ms_%1$s_max\":%7$s,"
                        + "\"peak_rss_mb_%1$s\":%8$s,\"jar_mb_%1$s\":%9$s,\"first_invocation_ms_%1$s\":%10$s,"
                        + "\"priming_ms_%1$s\":%11$s,\"first_invocation_primed_ms_%1$s\":%12$s,"
                        + "\"first_invocation_primed_ms_%1$s_min\":%13$s,\"first_invocation_primed_ms_%1$s_max\":%14$s",
                name, BenchStats.number(BenchStats.median(ready)), BenchStats.number(BenchStats.min(ready)),
                BenchStats.number(BenchStats.max(ready)), BenchStats.number(BenchStats.median(first)),
                BenchStats.number(BenchStats.min(first)), BenchStats.number(BenchStats.max(first)),
                BenchStats.number(BenchStats.median(rss)), BenchStats.number(jarMb),
                BenchStats.number(BenchStats.median(invocation)), BenchStats.number(BenchStats.median(priming)),
                BenchStats.number(BenchStats.median(primedInvocation)), BenchStats.number(BenchStats.min(primedInvocation)),
                BenchStats.number(BenchStats.max(primedInvocation))));
    }
}
