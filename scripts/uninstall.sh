#!/usr/bin/env bash
# Deletes a deployed stack (README, "Changing parameters, deleting, re-installing"): empties its
# operations bucket, runs sam delete, and keeps the tables and the storage bucket unless told
# otherwise. Needs the permissions of whoever deployed it.
#   scripts/uninstall.sh STACK_NAME [--delete-index] [--delete-files]
#   --delete-index   also delete the records and latest tables (a backfill rebuilds them from the files)
#   --delete-files   also empty and delete the storage bucket: every file and every version, for good
set -euo pipefail
source "$(dirname "$0")/lib/help.sh" "$0" "$@"
cd "$(dirname "$0")/.."
bash scripts/lib/venv.sh tools
export SAM_CLI_TELEMETRY=0
exec .venv-tools/bin/python scripts/lib/uninstall.py "$@"
