#!/usr/bin/env bash
# The explorer page for a deployed API, like kubectl proxy: serves explorer/ on http://127.0.0.1:8001/
# and signs the page's API calls with your AWS credentials (SigV4 for ApiAuthMode=AWS_IAM; --auth jwt
# sends DATALAKE_API_TOKEN or the output of DATALAKE_API_TOKEN_COMMAND), so the API stays closed and
# only this machine's browser reaches it through you. Ctrl-C stops it.
#   scripts/explore.sh --api https://abc123.execute-api.us-east-1.amazonaws.com
#   scripts/explore.sh                     # the API of DATALAKE_HTTP_URL
# As the datalake client: DATALAKE_CONFIG's file (default /etc/datalake.env) is read, and --auth follows
# DATALAKE_SESSION_CLASS (datalake_aws.SigV4Session: iam, the default; BearerTokenSession: jwt).
#   scripts/explore.sh --port 0 --auth jwt --api https://datalake.example.com
# Credentials come from the standard AWS chain (AWS_PROFILE, SSO, environment, instance role); the
# region from the execute-api URL, else AWS_REGION / AWS_DEFAULT_REGION / the profile's.
set -euo pipefail
source "$(dirname "$0")/lib/help.sh" "$0" "$@"
cd "$(dirname "$0")/.."
bash scripts/lib/venv.sh >&2
export DATALAKE_VENV="${DATALAKE_VENV:-$PWD/.venv}"
exec "$DATALAKE_VENV/bin/datalake-explore" --page-dir explorer "$@"
