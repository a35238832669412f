#!/usr/bin/env bash
# The performance benchmarks (docs/PERFORMANCE.md), one table at the end and every figure in
# target/bench.json. Not a test: CI does not run it, and nothing here fails on a slow figure.
#   1. translation: JMH, one thread pinned to one CPU, per message shape (TranslationBenchmark), and the
#      headline shape again with the ingester's flags from the template;
#   2. ingest: 10,000 real S3 objects in moto, their real notifications drained by Lambda-style pollers,
#      until every record is in dynalite (its own process); CPU time per process from /proc;
#   3. query: 1-day, 30-day and work_id queries and a full pagination of 10,000 files, on dynalite,
#      raw and with a simulated 5 ms round trip per DynamoDB call; then sharded days (ShardedPageBenchmark):
#      Queries, read units and time (raw, through the local stack's HTTP API, +5 ms a call) of a page of a
#      4,000-file day, of a 30-day query, of a 1-hour window of a 10,000-file day and of a 40,000-file day,
#      for S = 1, 4 and 16 shards (with --quick: 200 files a day after the first, a 1-hour window of 2,000
#      files, a day of 10,000);
#   4. cold start: each deployable jar in 10 fresh JVMs with the template's JAVA_TOOL_OPTIONS;
#   5. backfill: 10,000 objects already in a moto bucket indexed by scripts/backfill.sh's engine (BackfillIT);
#   6. freshness: upload-to-queryable latency through moto's real S3 -> SNS -> SQS, at 20 files/s for 2 minutes
#      and in a burst of 500, cut into the notification, the queue, the handler (ours) and the query;
#   7. the ingester's JVM: CPU per file and wall time per batch once warm, C1 only against full tiered
#      compilation, through the real SDK clients with 5 ms per AWS call (no emulator), alternating;
#   8. scale: docs/SCALE.md's busiest hour at 100 million files a day (scripts/scale_sim.py's workload) and
#      DynamoDB's partition limits, both divided by one factor, through the real ingester on dynalite
#      behind the partition-limit model (benchmarks' ThrottlingProxy): without limits, with them, and with the
#      top WHAT sharded; writes per key, throttled writes, files handed back to SQS, freshness, 30-day reads;
#   then scripts/cost.py turns the figures into dollars (per million files, queries, records).
# usage: scripts/bench.sh [--quick] [--ingest-files N] [--ingest-backlog N] [--region R] [--scale-factor N]
#                         [--only translation,ingest,query,coldstart,backfill,freshness,jvm,scale]
#   --quick             a bounded run for a first look: fewer files, runs and iterations.
#   --ingest-files N    files for part 2 (10,000; 1,000 with --quick).
#   --region R          the AWS region of the cost model (us-east-1).
#   --ingest-backlog N  part 2 pushes and drains in rounds of at most N files (200): moto's SQS costs
#                       O(queue depth) per message sent and received, so one backlog of all the files
#                       would make moto's time grow with the square of their number.
#   --scale-factor N    part 8 divides the workload's rates and bursts and DynamoDB's limits by N (40: 72
#                       files/s, 25 WCU/s per key); 300 s of the busiest hour (60 s with --quick).
# Needs the test virtualenv (moto) that scripts/test.sh installs; builds what it runs.
set -euo pipefail
source "$(dirname "$0")/lib/help.sh" "$0" "$@"
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/lib/java.sh"
cd "$root"

quick=false
only="translation,ingest,query,coldstart,backfill,freshness,jvm,scale"
files=""
scale_factor=40
region=us-east-1
backlog=200
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=true ;;
    --only) only="$2"; shift ;;
    --ingest-files) files="$2"; shift ;;
    --ingest-backlog) backlog="$2"; shift ;;
    --region) region="$2"; shift ;;
    --scale-factor) scale_factor="$2"; shift ;;
    *) echo "usage: scripts/bench.sh [--quick] [--ingest-files N] [--ingest-backlog N] [--region R] [--scale-factor N] [--only translation,ingest,query,coldstart,backfill,freshness,jvm,scale]" >&2; exit 2 ;;
  esac
  shift
done
wants() { [[ ",$only," == *",$1,"* ]]; }

# moto, and aws-sam-translator for every part that builds its stack from template.yaml (query, backfill, scale).
if wants ingest || wants query || wants coldstart || wants backfill || wants freshness || wants scale; then
  source "$root/scripts/lib/venv.sh" || exit 1
fi
# Every part but translation reads or writes DynamoDB: dynalite, installed when missing.
source "$root/scripts/lib/dynalite.sh" >/dev/null

out="$root/target/bench"
mkdir -p "$out"
rm -f "$out"/*.json "$root/target/bench.json"

echo "== building the deployable jars and the benchmark classes"
source "$root/scripts/lib/benchmarks.sh"
pin=()
if command -v taskset >/dev/null 2>&1; then
  pin=(taskset -c 0)
fi
java=("$JAVA_HOME/bin/java")
# Parts 2 and 5 run the ingester in the benchmark's own JVM, so that JVM takes the deployed ingester's
# settings (lambda_jvm, scripts/lib/benchmarks.sh): our CPU is measured in the JVM we deploy.

if wants translation; then
  echo "== 1. translation throughput (JMH, one thread on one CPU)"
  if $quick; then jmh=(-f 1 -wi 2 -w 1s -i 3 -r 1s); else jmh=(-f 1 -wi 3 -w 2s -i 5 -r 2s); fi
  shapes='datalake.ingester.TranslationBenchmark.(snsWrappedSingleRecord|directS3Event|eventBridgeEvent|directS3TwoRecords|snsWrappedThreeDayFile)$'
  "${pin[@]}" "${java[@]}" -cp "$bench_classpath" org.openjdk.jmh.Main "$shapes" -t 1 "${jmh[@]}" \
    -rf json -rff "$out/jmh.json" | grep -E '^(Benchmark|TranslationBenchmark)' || true
  echo "-- the headline shape with the ingester's flags from the template ($ingester_options)"
  "${pin[@]}" "${java[@]}" -cp "$bench_classpath" org.openjdk.jmh.Main \
    'datalake.ingester.TranslationBenchmark.snsWrappedSingleRecord$' -t 1 "${jmh[@]}" -jvmArgsAppend "$ingester_options" \
    -rf json -rff "$out/jmh-template-flags.json" | grep -E '^(Benchmark|TranslationBenchmark)' || true
fi

if wants ingest; then
  echo "== 2. end-to-end ingest on moto and dynalite"
  if [ -z "$files" ]; then
    if $quick; then files=1000; else files=10000; fi
  fi
  (cd benchmarks && "${java[@]}" "${lambda_jvm[@]}" -cp "$bench_classpath" datalake.bench.IngestBenchmark \
    --files "$files" --pollers 4 --backlog "$backlog" --clock-ticks "$(getconf CLK_TCK)" --json "$out/ingest.json")
fi

if wants query; then
  echo "== 3. queries on dynalite, raw and with 5 ms per call"
  if $quick; then q=(--iterations 30 --pagination-files 2000 --pagination-runs 2); else q=(--iterations 100 --pagination-files 10000 --pagination-runs 5); fi
  (cd benchmarks && "${java[@]}" -cp "$bench_classpath" datalake.query.QueryBenchmark \
    --latency-ms 5 --clock-ticks "$(getconf CLK_TCK)" "${q[@]}" --json "$out/query.json")
  echo "-- sharded days: what a page costs in Queries, read units and time for S = 1, 4, 16"
  # the day stays at 4,000 files with --quick: with fewer, a page spans several WHEREs, hence shards
  if $quick; then sp=(--day-files 4000 --month-files 200 --hour-day-files 2000 --busy-day-files 10000 --month-pages 3 --runs 1)
  else sp=(--day-files 4000 --month-files 1000 --hour-day-files 10000 --busy-day-files 40000 --month-pages 5 --runs 3); fi
  (cd benchmarks && "${java[@]}" -cp "$bench_classpath" datalake.query.ShardedPageBenchmark \
    --latency-ms 5 --clock-ticks "$(getconf CLK_TCK)" "${sp[@]}" --json "$out/query-sharded.json")
fi

if wants coldstart; then
  echo "== 4. cold start of the deployable jars"
  if $quick; then runs=3; else runs=10; fi
  (cd benchmarks && "${java[@]}" -cp "$bench_classpath" datalake.bench.ColdStartBenchmark \
    --ingester-jar "$(ls "$root"/lambda-ingester/target/lambda-ingester-*-lambda.jar)" \
    --query-jar "$(ls "$root"/lambda-query/target/lambda-query-*-lambda.jar)" \
    --java-tool-options "$tool_options" --ingester-java-tool-options "$ingester_options" \
    --runs "$runs" --json "$out/coldstart.json")
fi

if wants backfill; then
  echo "== 5. backfill of objects already in a bucket (moto and dynalite)"
  if $quick; then objects=1000; else objects=10000; fi
  mvn -B -q -ntp -pl index-tools -am verify -Dfuzz.skip -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test=BackfillIT -Dfailsafe.failIfNoSpecifiedTests=false -Ddatalake.backfill.objects="$objects" >/dev/null
  grep -ho 'backfill: [^<]*' "$root"/index-tools/target/failsafe-reports/TEST-datalake.tools.BackfillIT.xml | head -n 1
fi

if wants freshness; then
  echo "== 6. freshness: upload to queryable through moto's S3 -> SNS -> SQS"
  if $quick; then fr=(--rate 20 --seconds 30 --burst 200 --warmup 200); else fr=(--rate 20 --seconds 120 --burst 500 --warmup 300); fi
  (cd benchmarks && "${java[@]}" "${lambda_jvm[@]}" -cp "$bench_classpath" datalake.bench.FreshnessBenchmark \
    "${fr[@]}" --pollers 4 --json "$out/freshness.json")
fi

if wants jvm; then
  echo "== 7. the ingester's JVM: C1 only against full tiered compilation, warm, 5 ms per AWS call"
  # C2 is still compiling after 10,000 files: 30,000 files of warm-up before the measured ones.
  if $quick; then jv=(--rounds 1 --warmup 300 --batches 300); else jv=(--rounds 1 --warmup 3000 --batches 1000); fi
  (cd benchmarks && "${java[@]}" -cp "$bench_classpath" datalake.bench.IngesterJvmBenchmark \
    --compare "c1|-XX:+TieredCompilation -XX:TieredStopAtLevel=1 -XX:+UseSerialGC" \
    --compare "tiered|-XX:+TieredCompilation -XX:TieredStopAtLevel=4 -XX:+UseSerialGC" \
    "${jv[@]}" --json "$out/jvm.json")
fi

if wants scale; then
  echo "== 8. scale: the busiest hour of 100 million files a day and DynamoDB's partition limits, both / $scale_factor"
  if $quick; then sc=(--seconds 60); warm=20; else sc=(--seconds 300); warm=30; fi
  python3 "$root/scripts/scale_sim.py" --emit-files "$out/scale-workload.csv" --factor "$scale_factor" "${sc[@]}"
  (cd benchmarks && "${java[@]}" "${lambda_jvm[@]}" -cp "$bench_classpath" datalake.bench.ScaleBenchmark \
    --workload "$out/scale-workload.csv" --factor "$scale_factor" --warmup-seconds "$warm" --json "$out/scale.json" --counts "$out")
fi

echo "== cost in AWS ($region), from the figures above and published prices"
python3 "$root/scripts/cost.py" --region "$region" --bench "$out" --json "$out/cost.json" > "$out/cost.txt"
# The same with UploadNotifications=Queue (S3 -> SQS, no upload topic): issue 24's provisioned goal.
python3 "$root/scripts/cost.py" --region "$region" --bench "$out" --set upload_topic=0 --json "$out/cost-queue.json" > "$out/cost-queue.txt"
# Both billing modes of the tables: on demand, then provisioned (TableBillingMode, docs/COSTS.md).
sed -n '/^per million files ingested/,/^  total/p' "$out/cost.txt"
echo "   (the whole model, every price and assumption: $out/cost.txt)"

python3 "$root/scripts/lib/bench_report.py" "$out" "$root/target/bench.json" "$quick" "$tool_options" "$ingester_options"
