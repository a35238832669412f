#!/usr/bin/env bash
# Runs every test on a fresh machine, as CI does, with a JDK >= 21 (JAVA_HOME, else the newest under
# /usr/lib/jvm): unit tests (surefire) and integration tests (failsafe, a short fuzzing run and a soak of
# 1,000 notifications included) against dynalite (DynamoDB; from npm into .dynalite) and moto server
# (S3, SQS, SNS; from the test virtualenv this script creates), plus the Python datalake client compatibility checks, the tests of
# clients/python (pytest), and the explorer page in Debian's headless Chromium (installed here when
# missing and running as root, as CI does; scripts/lib/chromium.sh).
# LocalStack tests run where Docker exists and are skipped, with the reason, where it does not.
# Then checks template.yaml (scripts/check-template.sh).
# Extra arguments go to Maven, e.g. `scripts/test.sh -pl common-records`.
set -euo pipefail
source "$(dirname "$0")/lib/help.sh" "$0" "$@"
cd "$(dirname "$0")/.."

source scripts/lib/java.sh
echo "java: $JAVA_HOME"
bash scripts/lib/venv.sh
export DATALAKE_VENV="${DATALAKE_VENV:-$PWD/.venv}"
source scripts/lib/dynalite.sh
source scripts/lib/chromium.sh
datalake_chromium

# The signed sessions of clients/python, as installed in the virtualenv, and scripts/cost.py's model.
"$DATALAKE_VENV/bin/python" -m pytest -q -p no:cacheprovider clients/python/tests scripts/tests

mvn -B -ntp verify "$@"

# The template, as a deploy meets it: cfn-lint, sam validate --lint, checkov, sam build.
bash scripts/check-template.sh
