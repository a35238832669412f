#!/usr/bin/env bash
# Makes an existing bucket send its events to EventBridge too, where a stack deployed with
# ExistingBucketName picks them up (README, "Adopting an existing bucket"); the bucket's other
# notification configurations are written back unchanged. It names the bucket's region (GetBucketLocation),
# where the stack must be deployed. Run it as the bucket's owner (s3:GetBucketLocation,
# s3:GetBucketNotification, s3:PutBucketNotification).
#   scripts/adopt.sh s3://bucket
# The AWS CLI's credentials; AWS_REGION need not be the bucket's (unset: the calls start in us-east-1);
# AWS_ENDPOINT_URL_S3 for emulators (scripts/local.sh's).
set -euo pipefail
source "$(dirname "$0")/lib/help.sh" "$0" "$@"
source "$(dirname "$0")/lib/java_main.sh"
datalake_java_main index-tools datalake.tools.AdoptCommand "$@"
