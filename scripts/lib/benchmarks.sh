# Sourced by the benchmark scripts: builds the benchmarks module (and the deployable jars it measures)
# and sets bench_classpath to its classes and runtime dependencies. Expects $root and a JDK (java.sh).
# One reactor run: the class path is resolved while the modules are in the reactor, so the project's own
# jars come from their target/ directories and nothing needs to be installed in ~/.m2.
(cd "$root" && mvn -B -q -ntp -DskipTests -pl benchmarks -am package dependency:build-classpath \
       -Dmdep.outputFile=target/bench-classpath.txt -Dmdep.includeScope=runtime)
bench_classpath="$root/benchmarks/target/classes:$(cat "$root/benchmarks/target/bench-classpath.txt")"
