#!/bin/sh
# What the JFR lock events cost: the library's locks built without any probe (as if the events were
# not compiled in: -Dwordstats.lock.jfr=false), with the default JFR probe and no recording, and with
# the probe while a recording with wordstats-locks.jfc runs (every lock event on, waits from 10 us).
#
#   benchmarks/jfr-cost.sh OUT_DIR [REPEATS]        (default 3 repeats)
#
# Two benchmarks, each variant one JMH fork per repeat, the variants' order rotated by one each
# repeat, so a ratio compares forks of the same repeat:
#   - uncontended: UncontendedLockBenchmark.lockUnlock, ns per lock+unlock on one thread, for the
#     library's Lock types that get the JFR probe by default (NUMA_MCS, NUMA_HANDOFF);
#   - contended: LockContentionBenchmark, one hot lock, ~0.2 us inside, 64 virtual threads, ms per
#     round (-p jfrProbe=true|false: the benchmark builds the lock with or without the probe), for
#     NUMA_MCS, NUMA_HANDOFF and NUMA_MONITOR (which gets the probe only when given one, as here).
# Each LockWait event begins at the start of a wait and is committed after the release, so on the
# hot lock the recording variant pays a thread-local event per wait and a write per wait past 10 us.
# JMH's console output and JSON go to OUT_DIR (build output: do not commit them); the summary,
# one line per benchmark, variant and repeat, goes to OUT_DIR/summary.tsv and stdout.
# BENCHES="contended" runs one of the two. Uses benchmarks/target/benchmarks.jar (JAR=FILE another
# one), built when missing.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: benchmarks/jfr-cost.sh OUT_DIR [REPEATS]" >&2; exit 2; }
out=$1
repeats=${2:-3}
mkdir -p "$out"
out=$(cd "$out" && pwd)

. "$root/.mvn/select-jdk.sh"
jar=${JAR:-$root/benchmarks/target/benchmarks.jar}
if [ ! -f "$jar" ]; then
  (cd "$root" && ./mvnw -B -ntp -q -pl benchmarks -am package -DskipTests)
fi
flags=$(sed -n 's:.*<wordstats.jvm.flags>\(.*\)</wordstats.jvm.flags>.*:\1:p' "$root/pom.xml")
jfc="$root/numa-locks/src/main/resources/wordstats-locks.jfc"

# $1 variant name, $2 benchmark; prints the JMH arguments of that variant.
variant_args() {
  case "$1" in
    none) probe=false; fork="-Dwordstats.lock.jfr=false" ;;
    probe) probe=true; fork="-Dwordstats.lock.jfr=true" ;;
    recording)
      probe=true
      fork="-XX:StartFlightRecording:settings=default,settings=$jfc,filename=$out/recording-$$.jfr"
      ;;
  esac
  case "$2" in
    uncontended)
      echo "UncontendedLockBenchmark.lockUnlock -f 1 -wi 3 -i 5 -p lockType=NUMA_MCS,NUMA_HANDOFF -jvmArgsAppend $fork"
      ;;
    contended)
      echo "LockContentionBenchmark -f 1 -wi 2 -i 4 -p lockType=NUMA_MCS,NUMA_HANDOFF,NUMA_MONITOR -p inCpuTokens=100 -p actionsCount=320000 -p recordWaits=false -p jfrProbe=$probe -jvmArgsAppend $fork"
      ;;
  esac
}

{
  echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) benchmarks/jfr-cost.sh $out $repeats"
  echo "# commit $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo unknown); $(nproc) CPUs;" \
    "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1); $("$JAVA_HOME/bin/java" -version 2>&1 | head -1)"
  echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  printf 'benchmark\trepeat\tvariant\tlockType\tscore\tunit\n'
} >"$out/summary.tsv"

variants="none probe recording"
r=1
while [ "$r" -le "$repeats" ]; do
  # Rotate the variants' order by one each repeat.
  set -- $variants
  i=1
  while [ "$i" -lt "$r" ]; do first=$1; shift; set -- "$@" "$first"; i=$((i + 1)); done
  order="$*"
  for bench in ${BENCHES:-uncontended contended}; do
    for v in $order; do
      log="$out/$bench-$v-$r.txt"
      echo "== repeat $r: $bench, $v"
      # shellcheck disable=SC2046 # the arguments are meant to split
      "$JAVA_HOME/bin/java" $flags -jar "$jar" $(variant_args "$v" "$bench") -rf json -rff "$out/$bench-$v-$r.json" >"$log" 2>&1
      rm -f "$out/recording-$$.jfr"
      # The primary result lines: "<Benchmark> <params...> <lockType> ... Score Error Units"
      awk -v b="$bench" -v r="$r" -v v="$v" '
        /^Benchmark/ { for (i = 1; i <= NF; i++) if ($i == "(lockType)") col = i; next }
        col && $1 ~ /(lockUnlock|\.actions)$/ { print b "\t" r "\t" v "\t" $col "\t" $(NF - 3) "\t" $NF }
      ' "$log" >>"$out/summary.tsv"
    done
  done
  r=$((r + 1))
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/summary.tsv"
cat "$out/summary.tsv"
