#!/usr/bin/env bash
# Builds the deployable Lambda jars (target/<module>-<version>-lambda.jar), skipping tests.
#   scripts/build.sh                 both functions
#   scripts/build.sh MODULE [DIR]    one function; with DIR, also unpacks its jar there (SAM's ARTIFACTS_DIR)
set -euo pipefail
source "$(dirname "$0")/lib/help.sh" "$0" "$@"
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/lib/java.sh"

modules="${1:-lambda-ingester,lambda-query}"
(cd "$root" && mvn -B -q -ntp -pl "$modules" -am package -DskipTests)

if [ $# -ge 2 ]; then
  jar=$(ls "$root/$1"/target/"$1"-*-lambda.jar)
  mkdir -p "$2"
  (cd "$2" && "$JAVA_HOME/bin/jar" xf "$jar")
  echo "build: $1 unpacked into $2"
else
  ls -l "$root"/lambda-*/target/*-lambda.jar
fi
