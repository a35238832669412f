#!/usr/bin/env bash
# Indexes the objects already in a bucket through the ingester's own code path (README, "Adopting an
# existing bucket"): concurrent, idempotent, resumable; progress on stderr, the counts last on stdout.
# Objects still failing transiently: their keys go to a file it names, which --keys-from follows alone.
#   scripts/backfill.sh s3://bucket[/prefix] [--start-after KEY | --keys-from FILE] [--workers N] [--chunk N]
#                       [--page-size N]
# Configuration as the functions read it: DATALAKE_DYNAMODB_TABLE, DATALAKE_LATEST_TABLE,
# DATALAKE_MAX_BUCKET_SPAN and DATALAKE_RETENTION_DAYS (required: the stack's tables, MaxBucketSpan and
# RetentionDays, 0 for none), AWS_REGION, the AWS CLI's credentials;
# AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL_DYNAMODB for emulators (scripts/local.sh's).
set -euo pipefail
source "$(dirname "$0")/lib/help.sh" "$0" "$@"
source "$(dirname "$0")/lib/java_main.sh"
datalake_java_main index-tools datalake.tools.BackfillCommand "$@"
