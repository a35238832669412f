#!/usr/bin/env bash
# Where the ingester's CPU goes (docs/PERFORMANCE.md, "CPU per ingested file"): runs part 2 of
# scripts/bench.sh (IngestBenchmark on moto and dynalite) under Java Flight Recorder, then prints
# the handler's samples by AWS SDK operation (and what runs outside the SDK) and the JIT's compilations by
# compiler and by whose code they compile (IngestProfile). A profile, not a benchmark: the recording
# itself costs some CPU, so read the figures per file from scripts/bench.sh.
# usage: scripts/profile-ingest.sh [--files N] [--jvm "JVM flags"]
#   --files N    files to ingest (3,000)
#   --jvm FLAGS  the JVM's JIT flags (the template's JAVA_TOOL_OPTIONS for the ingester); the serial
#                collector is always added, as in Lambda.
# The recording and the benchmark's figures stay in target/profile/.
set -euo pipefail
source "$(dirname "$0")/lib/help.sh" "$0" "$@"
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/lib/java.sh"

files=3000
flags=""
while [ $# -gt 0 ]; do
  case "$1" in
    --files) files="$2"; shift ;;
    --jvm) flags="$2"; shift ;;
    *) echo "usage: scripts/profile-ingest.sh [--files N] [--jvm \"JVM flags\"]" >&2; exit 2 ;;
  esac
  shift
done
if [ ! -x "$root/.venv/bin/moto_server" ]; then
  "$root/scripts/lib/venv.sh"
fi
source "$root/scripts/lib/dynalite.sh" >/dev/null
source "$root/scripts/lib/benchmarks.sh"
jvm=(${flags:-$ingester_options} -XX:+UseSerialGC)

out="$root/target/profile"
mkdir -p "$out"
rm -f "$out/ingest.jfr"
# Samples every 10 ms; every compilation, however short; stacks deep enough to reach the handler from
# the SDK's innermost frames.
recording="filename=$out/ingest.jfr,jdk.ExecutionSample#period=10ms,jdk.Compilation#threshold=0ms"
echo "== ingesting $files files under JFR; JVM flags: ${jvm[*]}"
(cd "$root/benchmarks" && "$JAVA_HOME/bin/java" "${jvm[@]}" \
  -XX:FlightRecorderOptions:stackdepth=512 "-XX:StartFlightRecording:$recording" \
  -cp "$bench_classpath" datalake.bench.IngestBenchmark --files "$files" --pollers 4 --backlog 200 \
  --clock-ticks "$(getconf CLK_TCK)" --json "$out/ingest.json") | grep -v '^\[.*jfr'
echo "== where the CPU went ($out/ingest.jfr)"
"$JAVA_HOME/bin/java" -cp "$bench_classpath" datalake.bench.IngestProfile --jfr "$out/ingest.jfr"
