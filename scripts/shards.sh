#!/usr/bin/env bash
# Shows or changes which WHATs are written sharded (docs/SCALE.md, "Write sharding"):
#   scripts/shards.sh show
#   scripts/shards.sh set WHAT --from YYYY-MM-DD --shards S
# A change takes effect from the day after tomorrow (UTC) on, at the earliest. Configuration as for
# scripts/backfill.sh: DATALAKE_DYNAMODB_TABLE, AWS_REGION, the AWS CLI's credentials; AWS_ENDPOINT_URL_DYNAMODB
# for emulators (scripts/local.sh's).
set -euo pipefail
case " $* " in *" --help "* | *" -h "*) sed -n '2,4p' "$0" | cut -c3-; exit 0 ;; esac
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/lib/java.sh"
if [ ! -f "$root/index-tools/target/classpath.txt" ]; then
  (cd "$root" && mvn -B -q -ntp -pl index-tools -am package -DskipTests)
fi
exec "$JAVA_HOME/bin/java" -cp "$root/index-tools/target/classes:$(cat "$root/index-tools/target/classpath.txt")" \
  datalake.tools.ShardsCommand "$@"
