# Sourced by ./mvnw: run Maven (and so every JVM it forks: tests, the service, JMH, Gatling)
# on a JDK whose feature version is at least WORDSTATS_MIN_JAVA.
#
# Order: $JAVA_HOME, the JDK of `java` on PATH, then the usual install folders (the newest
# JDK found wins). A machine whose default `java` is older but which has a newer JDK beside it
# (for example /usr/lib/jvm/temurin-25-jdk-amd64) needs no set-up. Set JAVA_HOME to choose one.
#
# Sourcing it sets and exports JAVA_HOME and defines the two wordstats_* functions; it leaves
# the caller's other variables and its globbing setting as they were.

WORDSTATS_MIN_JAVA=25

# Prints the feature version of the JDK at $1 (25 for 25.0.3, 8 for 1.8.0), or nothing.
wordstats_jdk_feature() {
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  if [ -r "$1/release" ]; then
    wordstats_v=$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "$1/release")
  else
    wordstats_v=$("$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -n 1)
  fi
  case "$wordstats_v" in
  1.*) wordstats_v=${wordstats_v#1.} ;;
  esac
  wordstats_v=${wordstats_v%%[!0-9]*}
  [ -z "$wordstats_v" ] || printf '%s\n' "$wordstats_v"
  unset wordstats_v
  return 0
}

wordstats_select_jdk() {
  if [ -n "${JAVA_HOME-}" ]; then
    wordstats_f=$(wordstats_jdk_feature "$JAVA_HOME")
    if [ -n "$wordstats_f" ] && [ "$wordstats_f" -ge "$WORDSTATS_MIN_JAVA" ]; then
      unset wordstats_f
      return 0
    fi
  fi
  wordstats_best= wordstats_best_feature=0
  wordstats_path_java=$(command -v java 2>/dev/null || :)
  if [ -n "$wordstats_path_java" ]; then
    wordstats_path_java=$(readlink -f "$wordstats_path_java" 2>/dev/null || printf '%s' "$wordstats_path_java")
    set -- "${wordstats_path_java%/bin/java}"
  else
    set --
  fi
  case $- in
  *f*) wordstats_noglob=1 ;; # the caller (./mvnw, say) has globbing off: on for the search only
  *) wordstats_noglob= ;;
  esac
  set +f
  for wordstats_candidate in "$@" /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* \
    /Library/Java/JavaVirtualMachines/*/Contents/Home \
    "${HOME-}"/.sdkman/candidates/java/* "${HOME-}"/.jdks/*; do
    [ -d "$wordstats_candidate" ] || continue
    wordstats_f=$(wordstats_jdk_feature "$wordstats_candidate")
    if [ -n "$wordstats_f" ] && [ "$wordstats_f" -ge "$WORDSTATS_MIN_JAVA" ] \
      && [ "$wordstats_f" -gt "$wordstats_best_feature" ]; then
      wordstats_best=$wordstats_candidate wordstats_best_feature=$wordstats_f
    fi
  done
  [ -z "$wordstats_noglob" ] || set -f
  if [ -z "$wordstats_best" ]; then
    echo "wordstats needs a JDK $WORDSTATS_MIN_JAVA or newer, and none was found." >&2
    echo "Looked at JAVA_HOME (${JAVA_HOME:-unset}), java on PATH, /usr/lib/jvm, /usr/java, /opt," >&2
    echo "~/.sdkman and ~/.jdks. Install one (e.g. 'apt-get install temurin-25-jdk' or" >&2
    echo "'sdk install java 25-tem') or point JAVA_HOME at it." >&2
    exit 1
  fi
  JAVA_HOME=$wordstats_best
  export JAVA_HOME
  [ "${MVNW_VERBOSE-}" != true ] || echo "mvnw: using JDK $wordstats_best_feature at $JAVA_HOME"
  unset wordstats_f wordstats_best wordstats_best_feature wordstats_path_java wordstats_noglob wordstats_candidate
}

wordstats_select_jdk
