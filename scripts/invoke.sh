#!/usr/bin/env bash
# usage: scripts/invoke.sh FUNCTION [-e EVENT] [--parameter-overrides 'Name=Value ...']
# sam local invoke without Docker, on the running scripts/local.sh: runs FUNCTION's handler (a logical id of
# template.yaml: IngesterFunction, BackfillFunction, QueryFunction) once, in a JVM of its own with the
# environment, timeout and memory the local stack resolves for it, on the event in EVENT (- for standard
# input; none: {}). As sam does, the response goes to stdout and the log (START, END, REPORT) to stderr.
#   --parameter-overrides  the parameters local.sh was given (--prefix as DATALAKE_LOCAL_PREFIX); sam's form
#   DATALAKE_LOCAL_MOTO_PORT, DATALAKE_LOCAL_DYNAMODB_PORT  as for local.sh
# Exit status: 0 answered, 1 function error or timeout (sam itself exits 0 there), 2 bad arguments, 3 no
# local stack for these ports and parameters (it says which endpoint or resource is missing).
set -euo pipefail
source "$(dirname "$0")/lib/help.sh" "$0" "$@"
source "$(dirname "$0")/lib/java_main.sh"
datalake_java_main local-runner datalake.local.Invoke "$@"
