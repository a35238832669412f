# Sourced by the benchmark scripts: builds the benchmarks module (and the deployable jars it measures)
# and sets bench_classpath to its classes and runtime dependencies. Expects $root and a JDK (java.sh).
# One reactor run: the class path is resolved while the modules are in the reactor, so the project's own
# jars come from their target/ directories and nothing needs to be installed in ~/.m2.
(cd "$root" && mvn -B -q -ntp -DskipTests -pl benchmarks -am package dependency:build-classpath \
       -Dmdep.outputFile=target/bench-classpath.txt -Dmdep.includeScope=runtime)
bench_classpath="$root/benchmarks/target/classes:$(cat "$root/benchmarks/target/bench-classpath.txt")"

# The JVM settings the functions are deployed with: the template's JAVA_TOOL_OPTIONS (the first, the
# Globals'), the ingester's own when it has some (docs/DESIGN.md, the JVM decision), and lambda_jvm: the
# ingester's with the serial collector that Lambda's Java runtimes use (docs/PERFORMANCE.md).
tool_options="$(sed -n 's/^ *JAVA_TOOL_OPTIONS: *"\(.*\)".*/\1/p' "$root/template.yaml" | head -n 1)"
ingester_options="$(awk '/^  IngesterFunction:/ {f = 1; next} f && /^  [A-Za-z]/ {f = 0}
  f && /JAVA_TOOL_OPTIONS:/ {sub(/.*JAVA_TOOL_OPTIONS: *"/, ""); sub(/".*/, ""); print; exit}' "$root/template.yaml")"
ingester_options="${ingester_options:-$tool_options}"
lambda_jvm=($ingester_options -XX:+UseSerialGC)
