#!/usr/bin/env bash
# Deploys to the AWS account of your current credentials: sam build, then sam deploy --guided, which
# starts from samconfig.toml and asks before changing anything (README, "Deploying to AWS"). Extra
# arguments go to sam deploy; --config-env ENV (e.g. prod) selects the samconfig environment of both.
# Then sets stack-policy.json on the stack: no update may replace the tables or the storage bucket.
#   scripts/deploy.sh [--config-env ENV] [sam deploy options]
set -euo pipefail
source "$(dirname "$0")/lib/help.sh" "$0" "$@"
cd "$(dirname "$0")/.."
source scripts/lib/java.sh
bash scripts/lib/venv.sh tools
export SAM_CLI_TELEMETRY=0
sam=".venv-tools/bin/sam"
environment=default
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    --config-env) environment="${args[i + 1]:-}" ;;
    --config-env=*) environment="${args[i]#--config-env=}" ;;
  esac
done
# The samconfig environment's build parameters (build_in_source: no copy of the checkout per function).
"$sam" build --config-env "$environment"
"$sam" deploy --guided "$@"
# Each time (it is idempotent): refuses updates that would replace the tables or the storage bucket.
.venv-tools/bin/python scripts/lib/stack_policy.py "$@"
