#!/usr/bin/env bash
# API fuzz test: Schemathesis, driven by the service's own OpenAPI document (/v3/api-docs),
# against service.jar started here on 127.0.0.1 (a free port), bounded in examples and time.
# It fails on any server error (5xx), any status or content type the document does not list,
# a response body that does not match its documented schema, or a schema-valid request that
# the service rejects. It runs twice: with the fixed seed (the same cases every run, so a
# regression shows at once) and with a fresh random seed (new cases each run; the seed is
# printed, and `--seed N --no-fresh` replays a failure). .ci/run runs it after ./mvnw verify;
# by hand, after a package:
#
#   ./mvnw -B -ntp -pl service -am package -DskipTests
#   service/src/test/fuzz/api-fuzz.sh                  # about 2 minutes; --help for options
#
# Needs python3 with venv (Debian: python3-venv, installed here when run as root) and PyPI to
# install the pinned Schemathesis (requirements.txt) into a virtualenv kept between runs
# (WORDSTATS_FUZZ_VENV, default ~/.cache/wordstats/fuzz-<hash of requirements.txt>).
# Reports (JUnit XML, the service log) go to service/target/fuzz/.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)

jar="$root/service/target/service.jar"
max_examples=${WORDSTATS_FUZZ_EXAMPLES:-30}  # per operation and phase
max_time=${WORDSTATS_FUZZ_SECONDS:-90}       # the Schemathesis run as a whole
seed=${WORDSTATS_FUZZ_SEED:-20261123}       # the fixed seed
fresh_seed=${WORDSTATS_FUZZ_FRESH_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' \n')}
fresh=true
while [ $# -gt 0 ]; do
  case "$1" in
  --jar) jar=$2; shift ;;
  --examples) max_examples=$2; shift ;;
  --seconds) max_time=$2; shift ;;
  --seed) seed=$2; shift ;;
  --fresh-seed) fresh_seed=$2; shift ;;
  --no-fresh) fresh=false ;;
  -h | --help)
    sed -n '2,20p' "$0"
    echo "Options: --jar PATH --examples N --seconds S (each run) --seed N (fixed) --fresh-seed N --no-fresh"
    exit 0 ;;
  *) echo "api-fuzz: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

say() { printf 'api-fuzz: %s\n' "$*"; }
started=$SECONDS
[ -f "$jar" ] || { say "no service jar at $jar: run ./mvnw -B -ntp -pl service -am package -DskipTests first"; exit 1; }
out="$root/service/target/fuzz"
mkdir -p "$out"

# --- Schemathesis in a virtualenv of its own, reused while requirements.txt is unchanged
req_hash=$(sha256sum "$here/requirements.txt" | cut -c1-12)
venv=${WORDSTATS_FUZZ_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/wordstats/fuzz-$req_hash}
if [ ! -x "$venv/bin/schemathesis" ]; then
  if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      say "installing python3-venv (Debian)"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv >/dev/null 2>&1 ||
        { DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null 2>&1 &&
          DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv >/dev/null; }
    else
      say "python3 cannot make a virtualenv (Debian: apt-get install python3-venv)"; exit 1
    fi
  fi
  say "installing $(grep -v '^#' "$here/requirements.txt" | xargs) into $venv"
  t=$SECONDS
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$here/requirements.txt"
  say "installed in $((SECONDS - t)) s"
fi

# --- the service, on a free loopback port, stopped on exit whatever happens
# shellcheck source=../../../../.mvn/select-jdk.sh
. "$root/.mvn/select-jdk.sh"
wordstats_select_jdk >/dev/null
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
# A fresh data directory each run: no counts restored from an earlier run.
rm -rf "$out/data"
"$JAVA_HOME/bin/java" -jar "$jar" --server.address=127.0.0.1 --server.port="$port" \
  --wordstats.store.data-dir="$out/data" >"$out/service.log" 2>&1 &
service_pid=$!
stop_service() {
  if kill -0 "$service_pid" 2>/dev/null; then
    kill "$service_pid" 2>/dev/null || true
    wait "$service_pid" 2>/dev/null || true
  fi
}
trap stop_service EXIT
t=$SECONDS
until python3 -c "import urllib.request as u; u.urlopen('$base/actuator/health', timeout=2)" 2>/dev/null; do
  if ! kill -0 "$service_pid" 2>/dev/null || [ $((SECONDS - t)) -gt 120 ]; then
    say "the service did not come up; its log:"; tail -n 40 "$out/service.log"; exit 1
  fi
  sleep 1
done
say "service up at $base after $((SECONDS - t)) s"

# --- the fuzz runs: the fixed seed, then a fresh one
status=0
runs=("fixed:$seed")
[ "$fresh" = true ] && runs+=("fresh:$fresh_seed")
rm -f "$out"/schemathesis-junit*.xml
for run in "${runs[@]}"; do
  kind=${run%%:*} run_seed=${run#*:}
  say "$kind seed $run_seed: fuzzing for at most ${max_time} s, $max_examples examples per operation"
  run_status=0
  (cd "$out" && PYTHONPATH="$here" SCHEMATHESIS_HOOKS=wordstats_hooks \
    "$venv/bin/schemathesis" run "$base/v3/api-docs" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,positive_data_acceptance \
    --max-examples "$max_examples" --max-time "$max_time" --seed "$run_seed" --workers 2 \
    --request-timeout 30 --wait-for-schema 30 \
    --report junit --report-junit-path "$out/schemathesis-junit-$kind.xml" --report-dir "$out") || run_status=$?
  if [ "$run_status" != 0 ]; then
    say "the $kind seed $run_seed FAILED; replay it with: service/src/test/fuzz/api-fuzz.sh --seed $run_seed --no-fresh"
    status=$run_status
  fi
done

# A 5xx would be a failed check above; an error the service only logged would not.
if grep -q 'unexpected error' "$out/service.log"; then
  say "the service logged unexpected errors:"; grep -A5 'unexpected error' "$out/service.log" | head -40
  status=1
fi
stop_service
say "done in $((SECONDS - started)) s (install, start-up and fuzzing)"
reports=("$out"/schemathesis-junit-*.xml)
if [ -f "${reports[0]}" ]; then
  python3 - "${reports[@]}" <<'PY'
import sys, xml.etree.ElementTree as ET
tests = bad = skipped = 0
for path in sys.argv[1:]:
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    tests += sum(int(s.get("tests", 0)) for s in suites)
    bad += sum(int(s.get("failures", 0)) + int(s.get("errors", 0)) for s in suites)
    skipped += sum(int(s.get("skipped", 0)) for s in suites)
print(f"api-fuzz: {tests - bad - skipped} passed, {bad} failed, {skipped} skipped")
PY
fi
exit $status
