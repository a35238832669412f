#!/usr/bin/env bash
# The soak of issue 7 on the local stack (dynalite and moto, from scripts/lib's installs):
# N notifications through S3 -> SNS -> SQS -> the ingester with Lambda's SQS semantics, 1% poison, in
# rounds of ROUND (500): moto's SQS costs O(queue depth) per message, so one backlog would not scale.
# Prints the reconciliation (lost, duplicated, DLQ, reports) and the throughput, and leaves it in
# local-runner/target/soak-report.txt.  Usage: scripts/soak.sh [N [ROUND]]   (default 2000 500; e.g. 100000)
# scripts/test.sh runs the same test at 1,000 as part of the suite.
set -euo pipefail
source "$(dirname "$0")/lib/help.sh" "$0" "$@"
cd "$(dirname "$0")/.."
N="${1:-2000}"
ROUND="${2:-500}"
case "$N$ROUND" in ''|*[!0-9]*) echo "usage: scripts/soak.sh [N [ROUND]], numbers of notifications" >&2; exit 2;; esac

source scripts/lib/java.sh
bash scripts/lib/venv.sh
export DATALAKE_VENV="${DATALAKE_VENV:-$PWD/.venv}"
source scripts/lib/dynalite.sh

# SoakIT alone, in one reactor build of local-runner and the modules it needs: their classes come from
# their own target/ directories, not from ~/.m2, where another build's install could replace a jar under
# the running test (a soak of 100,000 runs for an hour and a half). -Dit.test selects nothing elsewhere.
mvn -B -ntp -pl local-runner -am verify -Dfuzz.skip -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test=SoakIT -Dfailsafe.failIfNoSpecifiedTests=false \
    -Ddatalake.soak.n="$N" -Ddatalake.soak.round="$ROUND"
cat local-runner/target/soak-report.txt
