# Sourced by the scripts that run a main class of this checkout (backfill, reconcile, shards, adopt, push,
# invoke): datalake_java_main MODULE CLASS [ARGS...] picks a JDK >= 21 (java.sh), builds MODULE once when
# it has never been built (its package phase writes target/classpath.txt), and replaces the shell with
# CLASS on the module's classes and runtime dependencies.

datalake_java_main() {
  local root module class
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  module="$1"
  class="$2"
  shift 2
  source "$root/scripts/lib/java.sh"
  if [ ! -f "$root/$module/target/classpath.txt" ]; then
    (cd "$root" && mvn -B -q -ntp -pl "$module" -am package -DskipTests)
  fi
  exec "$JAVA_HOME/bin/java" -cp "$root/$module/target/classes:$(cat "$root/$module/target/classpath.txt")" \
    "$class" "$@"
}
