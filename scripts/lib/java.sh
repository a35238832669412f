# Sourced by the scripts: exports JAVA_HOME pointing at a JDK >= 21 (the build targets --release 21).
# Honours JAVA_HOME when it is new enough; otherwise looks in the usual install places.
# Fails with one clear sentence when no suitable JDK exists.

datalake_java_major() {
  # Prints the feature version of the JDK at $1 (e.g. 17, 21, 25), or nothing.
  local release="$1/release"
  [ -x "$1/bin/javac" ] || return 0
  if [ -f "$release" ]; then
    sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release"
  else
    "$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1
  fi
}

datalake_pick_java() {
  local candidate major best="" best_major=0
  if [ -n "${JAVA_HOME:-}" ]; then
    major=$(datalake_java_major "$JAVA_HOME")
    if [ -n "$major" ] && [ "$major" -ge 21 ]; then
      export JAVA_HOME
      export PATH="$JAVA_HOME/bin:$PATH"
      return 0
    fi
  fi
  for candidate in /usr/lib/jvm/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -d "$candidate" ] || continue
    major=$(datalake_java_major "$candidate")
    if [ -n "$major" ] && [ "$major" -ge 21 ] && [ "$major" -gt "$best_major" ]; then
      best="$candidate"
      best_major="$major"
    fi
  done
  if [ -z "$best" ]; then
    echo "error: this build needs a JDK 21 or newer; none was found in JAVA_HOME (${JAVA_HOME:-unset}) or /usr/lib/jvm, so install one (Eclipse Temurin 21 or newer; on Debian 13, apt-get install openjdk-21-jdk) or set JAVA_HOME to it." >&2
    return 1
  fi
  export JAVA_HOME="$best"
  export PATH="$JAVA_HOME/bin:$PATH"
}

datalake_pick_java
