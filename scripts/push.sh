#!/usr/bin/env bash
# usage: scripts/push.sh --what WHAT --where WHERE [--start TIME] [--end TIME] [--work-id ID]
#                        [--endpoint URL] [--bucket NAME] FILE|DIRECTORY...
# Uploads files to the bucket of a running scripts/local.sh with their datalake metadata, as the datalake
# client's push does (a fresh id, BLAKE2b-128 hash, key <id>/data, metadata in x-amz-meta-datalake); the
# pipeline then indexes them. A DIRECTORY stands for every file under it; many files go up in one JVM,
# several at once, with the progress on stderr and each file's s3:// URL on stdout, waiting while the
# ingest queue holds 200 messages (moto's SQS slows with a queue's depth; keep it shallow with any tool).
#   TIME        ms or seconds since the epoch, or ISO-8601; --start defaults to each file's modification
#               time, --end to none (an instant)
#   --endpoint  moto's URL: http://127.0.0.1:$DATALAKE_LOCAL_MOTO_PORT (default port 5000), as for local.sh
#   --bucket    the local stack's: $DATALAKE_LOCAL_PREFIX-123456789012-us-east-1 (default prefix datalake)
set -euo pipefail
source "$(dirname "$0")/lib/help.sh" "$0" "$@"
source "$(dirname "$0")/lib/java_main.sh"
datalake_java_main local-runner datalake.local.Push "$@"
