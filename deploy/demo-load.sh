#!/usr/bin/env bash
# The load of the compose `demo` profile (deploy/gatling.Dockerfile): one Gatling simulation of
# load-tests against the service, round after round, so the dashboards keep moving. It shares
# the service container's network namespace (network_mode: service:service), so the load goes to
# 127.0.0.1:8080, the loopback address the simulations require, and never leaves that container.
# Each round clears the counts first and ends with the simulations' nothing-lost check; a failed
# round is reported and the next one starts. Settings (compose passes them from the shell):
#   DEMO_SIMULATION     HighContention | LowContention | MixedReadWrite   (HighContention)
#   DEMO_USERS          concurrent users of HighContention / MixedReadWrite (16)
#   DEMO_SECONDS        length of one round (120)
#   DEMO_PAUSE_SECONDS  pause between rounds (5)
#   DEMO_ARGS           more -Dname=value simulation parameters, e.g. "-DbatchPercent=50"
#   WORDSTATS_ADMIN_USER, WORDSTATS_ADMIN_PASSWORD
#                       the service's credential, which the reset (DELETE /api/words) needs;
#                       the simulation reads them from the environment (not the command line)
set -u
if [ -z "${WORDSTATS_ADMIN_PASSWORD:-}" ]; then
  echo "demo-load: WORDSTATS_ADMIN_PASSWORD is not set: the demo resets the counts before each round," \
    "which needs the service's credential. Start it with e.g." \
    "WORDSTATS_ADMIN_PASSWORD=choose-one docker compose --profile demo up -d" >&2
  exit 2
fi
simulation=${DEMO_SIMULATION:-HighContention}
users=${DEMO_USERS:-16}
seconds=${DEMO_SECONDS:-120}
pause=${DEMO_PAUSE_SECONDS:-5}
base_url=${DEMO_BASE_URL:-http://127.0.0.1:8080}
# The JVM flags Gatling needs on JDK 25 (as load-tests/pom.xml gives them), with a small heap.
flags=(-Xmx512m -XX:MaxInlineLevel=20 -XX:MaxTrivialSize=12 --sun-misc-unsafe-memory-access=allow
  --enable-native-access=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED)

round=0
while true; do
  round=$((round + 1))
  echo "demo-load: round $round: $simulation, $users users, $seconds s against $base_url"
  # shellcheck disable=SC2086 # DEMO_ARGS is a list of words on purpose
  java "${flags[@]}" -DbaseUrl="$base_url" -Dusers="$users" -DdurationSeconds="$seconds" ${DEMO_ARGS:-} \
    -cp "/gatling/classes:/gatling/lib/*" io.gatling.app.Gatling \
    -s "dev.wordstats.loadtests.$simulation" -rf /tmp/gatling-results -rd "demo round $round" -l demo
  status=$?
  rm -rf /tmp/gatling-results # reports are not kept: the dashboards are the report
  echo "demo-load: round $round ended with exit code $status; next round in $pause s"
  sleep "$pause"
done
