# Sourced by the benchmark scripts: builds the benchmarks module (and the deployable jars it measures)
# and sets bench_classpath to its classes and runtime dependencies. Expects $root and a JDK (java.sh).
(cd "$root" && mvn -B -q -ntp -DskipTests -pl benchmarks -am package \
  && mvn -B -q -ntp -pl benchmarks dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt \
       -Dmdep.includeScope=runtime)
bench_classpath="$root/benchmarks/target/classes:$(cat "$root/benchmarks/target/bench-classpath.txt")"
