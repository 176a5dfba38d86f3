# Sourced by ./mvnw: run Maven (and so every JVM it forks: tests, the service, JMH, Gatling)
# on a JDK whose feature version is at least WORDSTATS_MIN_JAVA.
#
# Order: $JAVA_HOME, the JDK of `java` on PATH, then the usual install folders (the newest
# JDK found wins). A machine whose default `java` is older but which has a newer JDK beside it
# (for example /usr/lib/jvm/temurin-25-jdk-amd64) needs no set-up. Set JAVA_HOME to choose one.

WORDSTATS_MIN_JAVA=25

# Prints the feature version of the JDK at $1 (25 for 25.0.3, 8 for 1.8.0), or nothing.
wordstats_jdk_feature() {
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  if [ -r "$1/release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "$1/release")
  else
    v=$("$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -n 1)
  fi
  case "$v" in
  1.*) v=${v#1.} ;;
  esac
  v=${v%%[!0-9]*}
  [ -n "$v" ] && printf '%s\n' "$v"
  return 0
}

wordstats_select_jdk() {
  if [ -n "${JAVA_HOME-}" ]; then
    f=$(wordstats_jdk_feature "$JAVA_HOME")
    if [ -n "$f" ] && [ "$f" -ge "$WORDSTATS_MIN_JAVA" ]; then
      return 0
    fi
  fi
  best= best_feature=0
  path_java=$(command -v java 2>/dev/null || :)
  if [ -n "$path_java" ]; then
    path_java=$(readlink -f "$path_java" 2>/dev/null || printf '%s' "$path_java")
    set -- "${path_java%/bin/java}"
  else
    set --
  fi
  set +f
  for candidate in "$@" /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* \
    /Library/Java/JavaVirtualMachines/*/Contents/Home \
    "${HOME-}"/.sdkman/candidates/java/* "${HOME-}"/.jdks/*; do
    [ -d "$candidate" ] || continue
    f=$(wordstats_jdk_feature "$candidate")
    if [ -n "$f" ] && [ "$f" -ge "$WORDSTATS_MIN_JAVA" ] && [ "$f" -gt "$best_feature" ]; then
      best=$candidate best_feature=$f
    fi
  done
  set -f
  if [ -z "$best" ]; then
    echo "wordstats needs a JDK $WORDSTATS_MIN_JAVA or newer, and none was found." >&2
    echo "Looked at JAVA_HOME (${JAVA_HOME:-unset}), java on PATH, /usr/lib/jvm, /usr/java, /opt," >&2
    echo "~/.sdkman and ~/.jdks. Install one (e.g. 'apt-get install temurin-25-jdk' or" >&2
    echo "'sdk install java 25-tem') or point JAVA_HOME at it." >&2
    exit 1
  fi
  JAVA_HOME=$best
  export JAVA_HOME
  [ "${MVNW_VERBOSE-}" != true ] || echo "mvnw: using JDK $best_feature at $JAVA_HOME"
}

wordstats_select_jdk
