#!/usr/bin/env bash
# Compares a bucket with the index and prints the drift, one line each (missing, orphaned, differing,
# untracked, stale_latest); --fix repairs it through the ingester's code path. The last line of the
# output is the counts, so a scheduled job can alert on it (exit status 2 while drift remains).
#   scripts/reconcile.sh s3://bucket[/prefix] [--fix] [--workers N]
# Configuration as for scripts/backfill.sh.
set -euo pipefail
source "$(dirname "$0")/lib/help.sh" "$0" "$@"
source "$(dirname "$0")/lib/java_main.sh"
datalake_java_main index-tools datalake.tools.ReconcileCommand "$@"
