#!/usr/bin/env bash
# Benchmarks the query Lambda's fan-out: a 30-day time query against a 1-day one with the same number of
# files in every day bucket, through QueryApi on dynalite; prints both medians and
# their ratio (target: 30-day <= 2x 1-day), without and with a simulated network round trip per call.
# The same run is part 3 of scripts/bench.sh.
#   scripts/bench-query.sh [--latency-ms N[,N...]] [--iterations N]      (defaults: 5,10 and 200)
set -euo pipefail
source "$(dirname "$0")/lib/help.sh" "$0" "$@"
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/lib/java.sh"
source "$root/scripts/lib/benchmarks.sh"
source "$root/scripts/lib/dynalite.sh" >/dev/null
cd "$root/benchmarks"
exec "$JAVA_HOME/bin/java" -cp "$bench_classpath" datalake.query.QueryBenchmark --clock-ticks "$(getconf CLK_TCK)" "$@"
