#!/usr/bin/env bash
# Uploads a file with its datalake metadata to the local bucket, as the datalake client's push does
# (id, BLAKE2b-128 hash, key <id>/data, metadata in x-amz-meta-datalake). Run scripts/local.sh first.
#   scripts/push.sh --what syslog --where myhost [--start TIME] [--end TIME] [--work-id ID] FILE
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/lib/java.sh"
if [ ! -f "$root/local-runner/target/classpath.txt" ]; then
  (cd "$root" && mvn -B -q -ntp -pl local-runner -am package -DskipTests)
fi
exec "$JAVA_HOME/bin/java" -cp "$root/local-runner/target/classes:$(cat "$root/local-runner/target/classpath.txt")" \
  datalake.local.Push "$@"
