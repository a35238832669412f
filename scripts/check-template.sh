#!/usr/bin/env bash
# Checks template.yaml the way a deploy would meet it: cfn-lint, sam validate --lint, checkov (every
# finding fixed or skipped with a reason in the template), and `sam build` (no Docker: the functions
# build through the Makefile). scripts/test.sh runs it after the Maven build.
#   scripts/check-template.sh [--no-build]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/java.sh
bash scripts/lib/venv.sh >/dev/null
bash scripts/lib/venv.sh tools >/dev/null
export SAM_CLI_TELEMETRY=0
venv="${DATALAKE_VENV:-$PWD/.venv}"
tools="${DATALAKE_TOOLS_VENV:-$PWD/.venv-tools}"

echo "template: cfn-lint"
"$venv/bin/cfn-lint" template.yaml

echo "template: sam validate --lint"
"$tools/bin/sam" validate --lint --region us-east-1 >/dev/null

echo "template: checkov"
# --skip-download: no network beyond the package registries, so no guideline download (its failure
# is only noise). checkov exits non-zero on any failed check.
report="$(mktemp)"
if ! "$tools/bin/checkov" --file template.yaml --framework cloudformation --compact --quiet --skip-download \
     >"$report" 2>"$report.err"; then
  cat "$report" "$report.err" >&2
  echo "error: checkov found problems in template.yaml (fix them, or skip with a reason in the resource's Metadata)." >&2
  exit 1
fi
grep -E 'Passed checks' "$report"
rm -f "$report" "$report.err"

if [ "${1:-}" != "--no-build" ]; then
  echo "template: sam build"
  log="$(mktemp)"
  if ! "$tools/bin/sam" build --build-in-source >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "error: sam build failed (full log: $log)." >&2
    exit 1
  fi
  rm -f "$log"
  for class in IngesterFunction/datalake/ingester/IngesterHandler.class QueryFunction/datalake/query/QueryHandler.class \
      BackfillFunction/datalake/ingester/BackfillHandler.class; do
    test -f ".aws-sam/build/$class" || { echo "error: sam build did not produce .aws-sam/build/$class" >&2; exit 1; }
  done
  du -sh .aws-sam/build/IngesterFunction .aws-sam/build/QueryFunction .aws-sam/build/BackfillFunction
fi
echo "template: ok"
