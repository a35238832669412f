#!/usr/bin/env bash
# The ingester's translation benchmark (JMH): SQS message body -> DynamoDB write requests, no I/O,
# for single-record S3 notifications in an SNS envelope (and, for comparison, direct S3 events).
# One benchmark thread, pinned to one CPU with taskset where it exists. Target: >= 100,000 ops/s.
# The same run is part 1 of scripts/bench.sh.
#   scripts/bench-translation.sh              the default run (1 fork, 3 x 2 s warm-up, 5 x 2 s measured)
#   scripts/bench-translation.sh -prof gc     extra arguments go to JMH
set -euo pipefail
source "$(dirname "$0")/lib/help.sh" "$0" "$@"
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/lib/java.sh"
source "$root/scripts/lib/benchmarks.sh"

pin=()
if command -v taskset >/dev/null 2>&1; then
  pin=(taskset -c 0)
fi
exec "${pin[@]}" "$JAVA_HOME/bin/java" -cp "$bench_classpath" org.openjdk.jmh.Main 'datalake.ingester.TranslationBenchmark' \
  -f 1 -t 1 -wi 3 -w 2s -i 5 -r 2s "$@"
