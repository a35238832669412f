#!/usr/bin/env bash
# Checks what a deploy meets, as a deploy would: no merge-conflict markers in any tracked file,
# cfn-lint, sam validate --lint, checkov (every finding fixed or skipped with a reason in the template),
# and `sam build` with samconfig.toml's build parameters, the ones scripts/deploy.sh uses (no Docker: the
# functions build through the Makefile, in the checkout, not in a copy of it). scripts/test.sh runs it
# after the Maven build.
#   scripts/check-template.sh [--no-build]
set -euo pipefail
source "$(dirname "$0")/lib/help.sh" "$0" "$@"
cd "$(dirname "$0")/.."

echo "repository: merge-conflict markers"
# A marker line starts with seven <, = or > (or |, diff3's base) and, but for =======, a space and a name.
if markers="$(git grep -nE '^(<{7}|>{7}|\|{7})( |$)|^={7}$' -- . 2>/dev/null)"; then
  echo "$markers" >&2
  echo "error: merge-conflict markers in tracked files (above): resolve them." >&2
  exit 1
fi

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
  echo "template: sam build (samconfig.toml's build parameters, as scripts/deploy.sh)"
  log="$(mktemp)"
  started=$SECONDS
  if ! "$tools/bin/sam" build >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "error: sam build failed (full log: $log)." >&2
    exit 1
  fi
  rm -f "$log"
  for class in IngesterFunction/datalake/ingester/IngesterHandler.class QueryFunction/datalake/query/QueryHandler.class \
      BackfillFunction/datalake/ingester/BackfillHandler.class; do
    test -f ".aws-sam/build/$class" || { echo "error: sam build did not produce .aws-sam/build/$class" >&2; exit 1; }
  done
  # The fast path builds each function from its jar alone. A function folder far beyond its jar's
  # size means sam copied the checkout (virtualenvs, target/) again: build_in_source is lost.
  limit_mb=150
  for function in IngesterFunction QueryFunction BackfillFunction; do
    size_mb=$(du -sm ".aws-sam/build/$function" | cut -f1)
    echo "  .aws-sam/build/$function: ${size_mb} MB"
    if [ "$size_mb" -gt "$limit_mb" ]; then
      echo "error: .aws-sam/build/$function holds ${size_mb} MB (more than ${limit_mb}): sam build copied more than the function's jar; keep build_in_source = true in samconfig.toml." >&2
      exit 1
    fi
  done
  echo "  sam build took $((SECONDS - started)) s"
fi
echo "template: ok"
