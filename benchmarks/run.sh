#!/bin/sh
# Runs one benchmark preset with the JDK that ./mvnw picks (>= 25; `java` on PATH may be older).
#
#   benchmarks/run.sh benchmarks/config/high-contention.json [OUT_DIR]
#
# Builds benchmarks/target/benchmarks.jar first when it is missing (or when BUILD=1; JAR=FILE uses
# that jar instead), then runs
# dev.wordstats.benchmarks.runner.BenchRunner: JMH per bench, progress on stdout, then CSV, JSON
# and PNG charts in OUT_DIR (default benchmarks/target/bench-results/<config name>).
# Same as: ./mvnw -pl benchmarks -am -Pbench verify -DskipTests -Dbench.config=CONFIG [-Dbench.out=OUT_DIR]
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: benchmarks/run.sh CONFIG.json [OUT_DIR]" >&2; exit 2; }
config=$1
name=$(basename "$config" .json)
out=${2:-$root/benchmarks/target/bench-results/$name}

# Sets and exports JAVA_HOME to a JDK 25 or newer, or exits with a clear message.
. "$root/.mvn/select-jdk.sh"

# JAR=path runs an already built jar (for example one built with -Dwordstats.target=NAME).
jar=${JAR:-$root/benchmarks/target/benchmarks.jar}
if [ -z "${JAR-}" ] && { [ ! -f "$jar" ] || [ "${BUILD-0}" = 1 ]; }; then
  (cd "$root" && ./mvnw -q -B -pl benchmarks -am package -DskipTests)
fi

flags=$(sed -n 's:.*<wordstats.jvm.flags>\(.*\)</wordstats.jvm.flags>.*:\1:p' "$root/pom.xml")
# shellcheck disable=SC2086 # the flags are several words on purpose
exec "$JAVA_HOME/bin/java" $flags -Djava.awt.headless=true -cp "$jar" \
  dev.wordstats.benchmarks.runner.BenchRunner --config "$config" --out "$out"
