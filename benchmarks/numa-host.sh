#!/usr/bin/env bash
# The NUMA-host runbook in one command: checks the host, runs every benchmark preset and the
# service comparison on the machine's real topology, and packs everything into one folder (and a
# .tar.gz of it) to carry away.
#
#   benchmarks/numa-host.sh [OUT_DIR]            the full run (an hour or more on a large host)
#   SMOKE=1 benchmarks/numa-host.sh [OUT_DIR]    the same steps, bounded (a few minutes): the smoke
#                                                preset, two lock types, 2 repeats of a few seconds
#
# OUT_DIR defaults to numa-host-results/<host>-<UTC time>. Settings (environment):
#   REPEATS=3                 repeats of the service comparison (order rotated each repeat)
#   LOCKS=A,B                 lock types of the comparison (default: every LockType; smoke: two)
#   SIMULATIONS="HighContention LowContention"   Gatling simulations to compare with
#   DURATION=30 WARMUP=10     seconds of load and of warm-up per comparison run
#   PRESETS=a,b               benchmark presets (default: every one but smoke; smoke: smoke)
#   TARGET_REPEATS=3          repeats of the interleaved lock comparison on targets.json (smoke: 2,
#                             on smoke-interleaved.json)
#   SERVICE_PLACEMENT, GATLING_PLACEMENT   cpus:LIST or nodes:LIST (default on a host with two or
#                             more NUMA nodes: Gatling on the last node, the service on the others)
# Needs a JDK 25 (found as ./mvnw finds it). Uses numactl and perf when installed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

smoke=${SMOKE:-0}
stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=${1:-$root/numa-host-results/$(hostname -s 2>/dev/null || echo host)-$stamp}
mkdir -p "$out"
out=$(cd "$out" && pwd)
log=$out/run.log
say() { echo "== $*" | tee -a "$log"; }
# bounded steps: the smoke mode must end whatever happens
limit() { if [ "$smoke" = 1 ]; then timeout "$1" "${@:2}"; else "${@:2}"; fi; }

# ---- 1. the host
. "$root/.mvn/select-jdk.sh"
nodes=()
for d in /sys/devices/system/node/node[0-9]*; do [ -d "$d" ] && nodes+=("${d##*node}"); done
IFS=$'\n' nodes=($(printf '%s\n' "${nodes[@]}" | sort -n)); unset IFS
{
  echo "# Host check ($(date -u +%FT%TZ))"
  echo
  echo "- host: $(hostname 2>/dev/null || echo '?'), kernel $(uname -srm)"
  echo "- CPUs: $(nproc) available to this shell, $(grep -c ^processor /proc/cpuinfo) online"
  echo "- JDK: $("$JAVA_HOME/bin/java" -version 2>&1 | head -n 1)"
  echo "- load average: $(cat /proc/loadavg)"
  echo "- NUMA nodes in sysfs: ${#nodes[@]}$([ "${#nodes[@]}" -gt 0 ] || echo ' (no /sys/devices/system/node: one node)')"
  for n in "${nodes[@]}"; do
    echo "  - node $n: CPUs $(cat /sys/devices/system/node/node$n/cpulist), distances $(cat /sys/devices/system/node/node$n/distance)"
  done
  if command -v numactl >/dev/null; then echo "- numactl: present"; else echo "- numactl: ABSENT (taskset places the processes; memory is not bound)"; fi
  if command -v perf >/dev/null && perf stat -e task-clock true >/dev/null 2>&1; then
    echo "- perf: usable (perfnorm and perfc2c profilers run)"
  else
    echo "- perf: NOT usable (the perf profilers are left out; install linux-perf, lower kernel.perf_event_paranoid)"
  fi
  echo
  echo '```'
  lscpu 2>/dev/null || echo "lscpu: not installed"
  echo
  if command -v numactl >/dev/null; then numactl --hardware; fi
  echo '```'
} > "$out/host.md"
cat "$out/host.md" | sed -n '1,20p' | tee -a "$log"
if [ "${#nodes[@]}" -lt 2 ]; then
  say "WARNING: fewer than two NUMA nodes: the NUMA-aware paths see one node (the figures still compare the locks)"
fi

# ---- 2. build (the service jar and the benchmarks jar)
say "building (service.jar, benchmarks.jar)"
limit 900 ./mvnw -B -ntp -q -pl benchmarks,load-tests -am package -DskipTests -Djcstress.skip >>"$log" 2>&1

# ---- 3. every benchmark preset, one report
if [ "$smoke" = 1 ]; then presets=${PRESETS:-smoke}; else presets=${PRESETS:-}; fi
say "benchmarks: ${presets:-every preset} -> $out/benchmarks/report.md"
PRESETS=$presets VERIFY=1 JAR="$root/benchmarks/target/benchmarks.jar" \
  limit 900 benchmarks/run.sh --all "$out/benchmarks" >>"$log" 2>&1 || { say "benchmarks FAILED (see run.log)"; status=1; }

# ---- 3b. the lock targets, rounds interleaved, with the serial floor's bound
if [ "$smoke" = 1 ]; then
  target_config=benchmarks/config/smoke-interleaved.json target_repeats=${TARGET_REPEATS:-2}
  target_locks=UNFAIR_REENTRANT,NUMA_HANDOFF
else
  target_config=benchmarks/config/targets.json target_repeats=${TARGET_REPEATS:-3}
  target_locks=UNFAIR_REENTRANT,FAIR_REENTRANT,SYNCHRONIZED,NUMA_MCS,NUMA_HANDOFF,NUMA_MONITOR
fi
say "lock targets: $target_config, $target_repeats repeats interleaved -> $out/targets/comparison.md"
JAR="$root/benchmarks/target/benchmarks.jar" limit 1800 benchmarks/run.sh "$target_config" "$out/targets" \
  --interleave "$target_repeats" --locks "$target_locks" --verify >>"$log" 2>&1 ||
  { say "lock targets FAILED (see run.log)"; status=1; }

# ---- 4. the service comparison on the real topology
if [ "$smoke" = 1 ]; then
  repeats=${REPEATS:-2} locks=${LOCKS:-SYNCHRONIZED,NUMA_MONITOR,NUMA_MCS,UNFAIR_REENTRANT} sims=${SIMULATIONS:-HighContention}
  duration=${DURATION:-3} warmup=${WARMUP:-2}
else
  repeats=${REPEATS:-3} locks=${LOCKS:-} sims=${SIMULATIONS:-HighContention LowContention}
  duration=${DURATION:-30} warmup=${WARMUP:-10}
fi
service_placement=${SERVICE_PLACEMENT-}
gatling_placement=${GATLING_PLACEMENT-}
if [ "${#nodes[@]}" -ge 2 ] && [ -z "${SERVICE_PLACEMENT+x}" ] && [ -z "${GATLING_PLACEMENT+x}" ]; then
  last=${nodes[-1]}
  service_placement="nodes:$(printf '%s\n' "${nodes[@]}" | grep -vx "$last" | paste -sd,)"
  gatling_placement="nodes:$last"
fi
status=${status:-0}
for sim in $sims; do
  say "comparison: $sim, locks ${locks:-every LockType}, $repeats repeats, ${duration}s each, service on ${service_placement:-any CPU}, Gatling on ${gatling_placement:-any CPU}"
  args=(-Dsimulation="$sim" -Drepeats="$repeats" -DdurationSeconds="$duration" -DwarmupSeconds="$warmup"
        -DservicePlacement="$service_placement" -DgatlingPlacement="$gatling_placement"
        -Dp99Millis=60000)
  [ -z "$locks" ] || args+=(-Dlocks="$locks")
  if limit 900 ./mvnw -B -ntp -pl load-tests -am -Pcompare verify -DskipTests -Djcstress.skip "${args[@]}" >>"$log" 2>&1; then
    say "comparison $sim done"
  else
    say "comparison $sim FAILED (see run.log)"; status=1
  fi
  rm -rf "$out/comparison/$sim"; mkdir -p "$out/comparison"
  [ -d "load-tests/target/comparison/$sim" ] && cp -r "load-tests/target/comparison/$sim" "$out/comparison/$sim"
done

# ---- 5. pack
{
  echo "# NUMA host results ($stamp)"
  echo
  echo "Made by \`$( [ "$smoke" = 1 ] && echo 'SMOKE=1 ')benchmarks/numa-host.sh\` at commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')."
  echo
  echo "- [host check](host.md): nodes, CPUs, numactl, perf, lscpu"
  echo "- [benchmarks](benchmarks/report.md): every preset's table and charts, the machine description"
  echo "- [lock targets](targets/comparison.md): the locks interleaved, ratios to the non-fair lock with their spread, the serial floor's bound"
  for sim in $sims; do echo "- [service comparison, $sim](comparison/$sim/report.md): median and min–max over the repeats, verdicts, every run's Gatling report"; done
  echo "- [run.log](run.log): everything the steps printed"
} > "$out/README.md"
tar -czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"
say "results: $out (packed: $out.tar.gz)"
exit "$status"
