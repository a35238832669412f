#!/usr/bin/env bash
# Runs the whole pipeline on this machine, in the foreground (Ctrl-C stops everything it started):
# DynamoDB Local on 8000, moto (S3, SQS, SNS) on 5000, the template's bucket, topics, queues and
# tables, the ingester fed from the queue with Lambda's SQS semantics, the query API and the explorer
# page on http://127.0.0.1:8080 (--auth iam: SigV4-signed API requests only, as deployed), and a demo
# dataset pushed through S3. Needs a JDK >= 21 and python3; builds and installs the rest.
# Options: scripts/local.sh --help
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/java.sh
bash scripts/lib/venv.sh
export DATALAKE_VENV="${DATALAKE_VENV:-$PWD/.venv}"
echo "build: compiling the runner and both functions (the first run downloads dependencies)"
mvn -B -q -ntp -pl local-runner -am package -DskipTests
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED \
  -Ddatalake.sqlite4java.dir=local-runner/target/native-libs \
  -cp "local-runner/target/classes:$(cat local-runner/target/classpath.txt)" \
  datalake.local.LocalRunner "$@"
