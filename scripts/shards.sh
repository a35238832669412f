#!/usr/bin/env bash
# Shows, changes or suggests which WHATs are written sharded (docs/SCALE.md, "Write sharding"):
#   scripts/shards.sh show
#   scripts/shards.sh set WHAT --from YYYY-MM-DD --shards S
#   scripts/shards.sh suggest [--hours 24]                  (the records table's Contributor Insights)
#   scripts/shards.sh suggest --from-counts FILE [--factor F]  ("key,second,writes" lines, times F)
# A change takes effect from the day after tomorrow (UTC, by AWS's clock) on, at the earliest. suggest names
# the WHATs whose busiest second exceeds a partition's 1,000 writes and the S that brings it to 500 a shard;
# it needs TableContributorInsights=Enabled, or a FILE from scripts/scale_sim.py --emit-counts or the
# partition model (scripts/bench.sh's scale-*-counts.csv, --factor 40).
# Configuration as for scripts/backfill.sh: DATALAKE_DYNAMODB_TABLE, AWS_REGION, the AWS CLI's credentials;
# AWS_ENDPOINT_URL_DYNAMODB for emulators (scripts/local.sh's).
set -euo pipefail
case " $* " in *" --help "* | *" -h "*) sed -n '2,10p' "$0" | cut -c3-; exit 0 ;; esac
source "$(dirname "$0")/lib/java_main.sh"
datalake_java_main index-tools datalake.tools.ShardsCommand "$@"
