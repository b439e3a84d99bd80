# Sourced by the other .ci scripts: selects a JDK >= 21 into JAVA_HOME and PATH, or stops with a message.
# LatencyLab compiles with --release 21; a JDK 17 (the Debian 12 default) cannot build it.
_ll_major() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}' | cut -d. -f1
}
_ll_pick() {
  local c
  for c in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-2[1-9]* /usr/lib/jvm/java-2[1-9]* \
           /usr/lib/jvm/*; do
    [ -n "$c" ] && [ -x "$c/bin/java" ] && [ -x "$c/bin/javac" ] || continue
    local m; m=$(_ll_major "$c")
    if [ -n "$m" ] && [ "$m" -ge 21 ] 2>/dev/null; then echo "$c"; return 0; fi
  done
  return 1
}
if _ll_jdk=$(_ll_pick); then
  export JAVA_HOME="$_ll_jdk"
  export PATH="$JAVA_HOME/bin:$PATH"
  # Maven's own libraries use sun.misc.Unsafe, which JDK 24+ warns about on every build; allow it quietly.
  if [ "$(_ll_major "$JAVA_HOME")" -ge 24 ]; then
    export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
  fi
else
  echo "LatencyLab needs a JDK 21 or newer (found none in JAVA_HOME or /usr/lib/jvm)." >&2
  echo "Install one (e.g. Temurin 21 or 25) and set JAVA_HOME to it." >&2
  exit 1
fi
command -v mvn >/dev/null || { echo "Maven 3.8+ is needed: apt-get install -y maven" >&2; exit 1; }
