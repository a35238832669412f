#!/usr/bin/env bash
# usage: scripts/local.sh [options]
# Runs the whole pipeline on this machine, in the foreground (Ctrl-C stops everything it started):
# dynalite (DynamoDB), moto (S3, SQS, SNS), template.yaml's bucket, topics, queues and tables, the ingester fed
# from the queue with Lambda's SQS semantics, the query API with the explorer page at its /, and a demo
# dataset pushed through S3. Needs a JDK >= 21, python3 and Node.js >= 20; builds and installs the rest (a minute or two
# the first time).
#   --api-port N       the query API's port (DATALAKE_LOCAL_API_PORT, default 8080)
#   --dynamodb-port N  dynalite's port (DATALAKE_LOCAL_DYNAMODB_PORT, default 8000)
#   --moto-port N      moto's port (DATALAKE_LOCAL_MOTO_PORT, default 5000)
#   --prefix NAME      template.yaml's NamePrefix, the prefix of every name (DATALAKE_LOCAL_PREFIX, default
#                      datalake: bucket datalake-123456789012-us-east-1)
#   --batch-size N     template.yaml's IngestBatchSize: SQS messages per ingester invocation
#   --parameter K=V    any other template.yaml parameter, as sam deploy --parameter-overrides
#   --no-demo          no demo dataset
#   --auth none|iam    none (default): the API answers every request; iam: as ApiAuthMode=AWS_IAM, only
#                      requests SigV4-signed with the local credentials, else 403 (DATALAKE_LOCAL_AUTH)
#   --log FILE         the functions' log lines (default target/local/PREFIX.log; the console gets a
#                      summary every 10 s and the faults)
# Port 0 picks a free port. scripts/push.sh reads the same DATALAKE_LOCAL_* variables.
set -euo pipefail
source "$(dirname "$0")/lib/help.sh" "$0" "$@"
cd "$(dirname "$0")/.."
source scripts/lib/java.sh
bash scripts/lib/venv.sh
export DATALAKE_VENV="${DATALAKE_VENV:-$PWD/.venv}"
source scripts/lib/dynalite.sh
echo "build: compiling the runner and both functions (the first run downloads dependencies)"
mvn -B -q -ntp -pl local-runner -am package -DskipTests
exec "$JAVA_HOME/bin/java" \
  -cp "local-runner/target/classes:$(cat local-runner/target/classpath.txt)" \
  datalake.local.LocalRunner "$@"
