#!/usr/bin/env bash
# Compares a bucket with the index and prints the drift, one line each (missing, orphaned, differing,
# untracked, stale_latest); --fix repairs it through the ingester's code path. The last line of the
# output is the counts, so a scheduled job can alert on it (exit status 2 while drift remains).
#   scripts/reconcile.sh s3://bucket[/prefix] [--fix] [--workers N]
# Configuration as for scripts/backfill.sh.
set -euo pipefail
source "$(dirname "$0")/lib/help.sh" "$0" "$@"
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/lib/java.sh"
if [ ! -f "$root/index-tools/target/classpath.txt" ]; then
  (cd "$root" && mvn -B -q -ntp -pl index-tools -am package -DskipTests)
fi
exec "$JAVA_HOME/bin/java" -cp "$root/index-tools/target/classes:$(cat "$root/index-tools/target/classpath.txt")" \
  datalake.tools.ReconcileCommand "$@"
