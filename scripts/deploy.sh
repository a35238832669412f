#!/usr/bin/env bash
# Deploys to the AWS account of your current credentials: sam build, then sam deploy --guided the
# first time (it writes samconfig.toml), plain sam deploy afterwards. Extra arguments go to sam deploy,
# e.g. `scripts/deploy.sh --config-env prod`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/java.sh
bash scripts/lib/venv.sh tools
export SAM_CLI_TELEMETRY=0
sam=".venv-tools/bin/sam"
"$sam" build
if [ -f samconfig.toml ] && grep -q '^\[default.deploy' samconfig.toml; then
  "$sam" deploy "$@"
else
  "$sam" deploy --guided "$@"
fi
