#!/usr/bin/env bash
# Deploys to the AWS account of your current credentials: sam build, then sam deploy --guided, which
# starts from samconfig.toml and asks before changing anything. Extra arguments go to sam deploy,
# e.g. `scripts/deploy.sh --config-env prod`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/java.sh
bash scripts/lib/venv.sh tools
export SAM_CLI_TELEMETRY=0
sam=".venv-tools/bin/sam"
"$sam" build
"$sam" deploy --guided "$@"
