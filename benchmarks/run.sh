#!/bin/sh
# Runs benchmark presets with the JDK that ./mvnw picks (>= 25; `java` on PATH may be older).
#
#   benchmarks/run.sh benchmarks/config/high-contention.json [OUT_DIR]   one preset
#   benchmarks/run.sh --all [OUT_DIR]                                    every preset, one report
#   benchmarks/run.sh CONFIG OUT_DIR --interleave 3 [--locks A,B] [--against LOCK] [--no-floor]
#                                  the locks compared with rounds interleaved and repeated: ratios to
#                                  the reference lock with their spread, and the serial floor
#   benchmarks/run.sh CONFIG OUT_DIR --interleave 2 --smoke [--verify]
#                                  every bench of CONFIG shrunk to milliseconds, in the runner's JVM:
#                                  proves it runs, measures nothing
#
# One preset: JMH per bench, progress on stdout, then CSV, JSON and PNG charts in OUT_DIR (default
# benchmarks/target/bench-results/<config name>). Same as:
#   ./mvnw -pl benchmarks -am -Pbench verify -DskipTests -Dbench.config=CONFIG [-Dbench.out=OUT_DIR]
# --all: every preset of benchmarks/config except smoke.json (PRESETS=a,b picks some, in that
# order; PRESETS=smoke is the seconds-long check), each into OUT_DIR/<preset>/, and OUT_DIR/report.md
# with every table and chart and the machine description (default benchmarks/target/bench-report).
# VERIFY=1 adds --verify (exit 1 when an output is missing).
#
# Builds benchmarks/target/benchmarks.jar first when it is missing (or when BUILD=1; JAR=FILE uses
# that jar instead), then runs dev.wordstats.benchmarks.runner.BenchRunner.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: benchmarks/run.sh CONFIG.json [OUT_DIR [RUNNER_ARGS...]] | benchmarks/run.sh --all [OUT_DIR]"
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
command="benchmarks/run.sh $*"
if [ "$1" = --all ]; then
  set -- --all "$root/benchmarks/config" --out "${2:-$root/benchmarks/target/bench-report}"
  [ -z "${PRESETS-}" ] || set -- "$@" --presets "$PRESETS"
else
  config=$1
  name=$(basename "$config" .json)
  out=${2:-$root/benchmarks/target/bench-results/$name}
  shift
  [ $# -eq 0 ] || shift
  set -- --config "$config" --out "$out" "$@"
fi
[ "${VERIFY-0}" != 1 ] || set -- "$@" --verify

# Sets and exports JAVA_HOME to a JDK 25 or newer, or exits with a clear message.
. "$root/.mvn/select-jdk.sh"

# JAR=path runs an already built jar (for example one built with -Dwordstats.target=NAME).
jar=${JAR:-$root/benchmarks/target/benchmarks.jar}
if [ -z "${JAR-}" ] && { [ ! -f "$jar" ] || [ "${BUILD-0}" = 1 ]; }; then
  (cd "$root" && ./mvnw -q -B -pl benchmarks -am package -DskipTests)
fi

flags=$(sed -n 's:.*<wordstats.jvm.flags>\(.*\)</wordstats.jvm.flags>.*:\1:p' "$root/pom.xml")
# shellcheck disable=SC2086 # the flags are several words on purpose
exec "$JAVA_HOME/bin/java" $flags -Djava.awt.headless=true -Dbench.command="$command" -cp "$jar" \
  dev.wordstats.benchmarks.runner.BenchRunner "$@"
