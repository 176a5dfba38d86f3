#!/bin/sh
# The regime rows with rounds interleaved in one JVM (dev.wordstats.benchmarks.runner.InterleavedRounds):
# for each row and each candidate lock a JVM in which the candidate and the two references
# (UNFAIR_REENTRANT, SYNCHRONIZED) run one round in turn, order rotated each round, so that the
# ratios compare rounds seconds apart on the same JIT, heap and host noise. The JMH regime matrix
# (run.sh config/regime-matrix.json --interleave 3) gives each lock a JVM of its own instead; on a
# shared 2-vCPU guest two JVMs of one lock can differ by more than the locks do. One candidate a JVM:
# more lock types in one JVM make the guards' call sites megamorphic, which slows the Lock-based
# guards more than synchronized.
#
#   benchmarks/rounds.sh OUT_DIR
#
# CANDIDATES (default NUMA_MONITOR; lock types, or for the text rows CHM_LONG_ADDER,
# PER_THREAD_MAPS or SPIN_BOUND, the cheapest lock: an unbounded spin, a bound and not a lock to
# use) the locks compared with the references; ROUNDS (default 10) measured rounds a
# JVM, after 3 warm-up rounds; ROWS picks rows by name (default: every row). OUT_DIR/README.md gets
# the command, the commit and one table a row and candidate; the console output goes to
# OUT_DIR/console.log (build output: not to commit). Uses benchmarks/target/benchmarks.jar (JAR=FILE
# another one), built when missing.
# Rows (about 20 s a candidate on 2 vCPUs):
#   text-{hot6,zipf}-{1,4,64}-{word,line}   striped counting: 6 words alike or Zipf(1.0) over 50,000;
#                                          1, 4 or 64 stripes; a section per word or per line's stripe
#   hot-02us, hot-2us, hot-yield           one hot lock: ~0.2 us, ~2 us, ~0.2 us with a yield inside
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: benchmarks/rounds.sh OUT_DIR" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
rounds=${ROUNDS:-10}

. "$root/.mvn/select-jdk.sh"
jar=${JAR:-$root/benchmarks/target/benchmarks.jar}
if [ ! -f "$jar" ]; then
  (cd "$root" && ./mvnw -B -ntp -q -pl benchmarks -am package -DskipTests)
fi
flags=$(sed -n 's:.*<wordstats.jvm.flags>\(.*\)</wordstats.jvm.flags>.*:\1:p' "$root/pom.xml")

all_rows="text-hot6-1-word text-hot6-4-word text-hot6-64-word text-hot6-1-line text-hot6-4-line text-hot6-64-line
text-zipf-1-word text-zipf-4-word text-zipf-64-word text-zipf-1-line text-zipf-4-line text-zipf-64-line
hot-02us hot-2us hot-yield"
rows=${ROWS:-$all_rows}
candidates=${CANDIDATES:-NUMA_MONITOR}

# $1 row name; prints the runner's arguments for it.
row_args() {
  case "$1" in
    text-*)
      set -- $(echo "$1" | tr '-' ' ')
      case "$2" in
        hot6) words="--vocabulary 6 --exponent 0.0" ;;
        zipf) words="--vocabulary 50000 --exponent 1.0" ;;
        *) echo "unknown row text-$2" >&2; exit 2 ;;
      esac
      echo "text $words --stripes $3 --granularity $4 --lines 100000 --words-per-line 20"
      ;;
    hot-02us) echo "hot --tokens 100 --actions 1000000" ;;
    hot-2us) echo "hot --tokens 1400 --actions 160000" ;;
    hot-yield) echo "hot --tokens 100 --actions 200000 --yield" ;;
    *) echo "unknown row $1" >&2; exit 2 ;;
  esac
}

commit=$(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo unknown)
{
  echo "# Interleaved rounds"
  echo
  echo "\`ROUNDS=$rounds CANDIDATES=\"$candidates\" benchmarks/rounds.sh OUT_DIR\`${ROWS:+ (ROWS=$ROWS)} at commit $commit,"
  echo "$(date -u +%FT%TZ);"
  echo "\`chrt\` priority: $(chrt -p $$ 2>/dev/null | sed -n 's/.*priority: //p' | tail -1)."
  echo "Ratios are throughput ratios to the reference in the same round: median (min–max) of the rounds;"
  echo "faster or slower only when every round agrees."
  echo
} > "$out/README.md"
: > "$out/console.log"
for row in $rows; do
  args=$(row_args "$row")
  echo "## $row" >> "$out/README.md"
  echo >> "$out/README.md"
  for candidate in $candidates; do
    case "$row:$candidate" in hot-*:CHM_LONG_ADDER | hot-*:PER_THREAD_MAPS | hot-*:SPIN_BOUND) continue ;; esac
    echo "== $row, $candidate: $args" | tee -a "$out/console.log"
    # shellcheck disable=SC2086 # flags and args are several words on purpose
    "$JAVA_HOME/bin/java" $flags -Xms1g -Xmx1g -cp "$jar" dev.wordstats.benchmarks.runner.InterleavedRounds \
      $args --locks "UNFAIR_REENTRANT,SYNCHRONIZED,$candidate" --rounds "$rounds" --out "$out/row.md" \
      >> "$out/console.log" 2>&1
    cat "$out/row.md" >> "$out/README.md"
    rm -f "$out/row.md"
  done
done
echo "tables in $out/README.md"
