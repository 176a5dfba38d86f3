#!/usr/bin/env bash
# Builds the images docker-compose.local.yml uses, from Debian packages only, for hosts that
# reach a Debian mirror but no container registry (air-gapped hosts; CI here).
#
#   wordstats/debian-base:bookworm   debootstrap --variant=minbase + docker import
#   wordstats/prometheus:local       the base + Debian's `prometheus` package
#   wordstats/jre:25-local           the base + a jlinked runtime of the JDK 25 the build uses
#                                    (with the jfr and jcmd tools) + Debian's numactl
#   wordstats/service:local          deploy/Dockerfile on wordstats/jre:25-local + service.jar
#
# Grafana has no Debian package, so no Grafana image can be built here: an air-gapped host must
# `docker load` a Grafana image it brought (see deploy/README.md). Without one, run the stack
# without Grafana: docker-compose.local.yml puts Grafana behind the `grafana` profile.
#
# Usage: deploy/local-images.sh [--rebuild] [--no-service] [--jar PATH]
#   --rebuild     build every image again even if it exists
#   --no-service  build only base, Prometheus and runtime images (no service jar needed)
#   --jar PATH    the service jar (default: service/target/service.jar)
# Needs: root (debootstrap), docker, debootstrap, a JDK 25 (found as ./mvnw finds it).
# The Debian mirror is the one apt uses on this host (/etc/apt/sources.list*); DEBIAN_MIRROR
# overrides it.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

rebuild=false with_service=true jar="$root/service/target/service.jar"
while [ $# -gt 0 ]; do
  case "$1" in
  --rebuild) rebuild=true ;;
  --no-service) with_service=false ;;
  --jar) jar=$2; shift ;;
  -h | --help) sed -n '2,22p' "$0"; exit 0 ;;
  *) echo "local-images: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

BASE_IMAGE=wordstats/debian-base:bookworm
PROMETHEUS_IMAGE=wordstats/prometheus:local
JRE_IMAGE=wordstats/jre:25-local
SERVICE_IMAGE=wordstats/service:local
SUITE=bookworm

say() { printf 'local-images: %s\n' "$*"; }
# An image is reused when it exists and carries the recipe label of what would build it now
# (its Dockerfile, module list, mirror), so a changed recipe rebuilds it.
have_image() {
  [ "$rebuild" = false ] &&
    [ "$(docker image inspect --format '{{ index .Config.Labels "wordstats.recipe" }}' "$1" 2>/dev/null)" = "$2" ]
}
timed() { # timed LABEL CMD...: runs CMD and reports its wall time
  local label=$1 start=$SECONDS; shift
  "$@"
  say "$label took $((SECONDS - start)) s"
}

# The mirror apt uses here: first Debian archive URI for the suite in sources.list or deb822 files.
debian_mirror() {
  if [ -n "${DEBIAN_MIRROR-}" ]; then printf '%s\n' "$DEBIAN_MIRROR"; return; fi
  local f uri
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -r "$f" ] || continue
    uri=$(awk -v s="$SUITE" '$1 == "deb" { for (i = 2; i < NF; i++) if ($i !~ /^\[/ && $(i+1) == s) { print $i; exit } }' "$f")
    [ -n "$uri" ] && { printf '%s\n' "$uri"; return; }
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -r "$f" ] || continue
    uri=$(awk -v s="$SUITE" '
      /^[[:space:]]*$/ { if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " s " ") && uris != "") { split(uris, u, " "); print u[1]; exit } types = uris = suites = ""; next }
      /^Types:/ { sub(/^Types:[[:space:]]*/, ""); types = $0 }
      /^URIs:/ { sub(/^URIs:[[:space:]]*/, ""); uris = $0 }
      /^Suites:/ { sub(/^Suites:[[:space:]]*/, ""); suites = $0 }
      END { if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " s " ") && uris != "") { split(uris, u, " "); print u[1] } }' "$f" | head -n 1)
    [ -n "$uri" ] && { printf '%s\n' "$uri"; return; }
  done
  echo "local-images: no Debian '$SUITE' mirror in /etc/apt/sources.list*; set DEBIAN_MIRROR" >&2
  exit 1
}

command -v docker >/dev/null || { echo "local-images: docker is not installed" >&2; exit 1; }
docker info >/dev/null 2>&1 || { echo "local-images: no Docker engine answers (is dockerd running?)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/wordstats-images.XXXXXX")
trap 'rm -rf "$work"' EXIT

build_base() {
  command -v debootstrap >/dev/null || { echo "local-images: debootstrap is not installed (apt-get install debootstrap)" >&2; exit 1; }
  local mirror; mirror=$(debian_mirror)
  say "debootstrap $SUITE (minbase) from $mirror"
  debootstrap --variant=minbase "$SUITE" "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -n 30 "$work/debootstrap.log" >&2; exit 1; }
  rm -rf "$work/rootfs/var/cache/apt/archives/"*.deb "$work/rootfs/var/lib/apt/lists/"*
  tar -C "$work/rootfs" --numeric-owner -c . |
    docker import --change 'CMD ["/bin/bash"]' --change 'ENV LANG=C.UTF-8' \
      --change "LABEL wordstats.recipe=$base_recipe" - "$BASE_IMAGE" >/dev/null
  rm -rf "$work/rootfs"
}

build_prometheus() {
  # The build container uses the host network so apt reaches the same mirror as the host.
  docker build -q --network host --build-arg "BASE_IMAGE=$BASE_IMAGE" -t "$PROMETHEUS_IMAGE" \
    --label "wordstats.recipe=$prometheus_recipe" \
    -f "$here/local/prometheus.Dockerfile" "$here/local" >/dev/null
}

find_jdk() {
  # The JDK 25 the build uses, found exactly as ./mvnw finds it.
  # shellcheck source=../.mvn/select-jdk.sh
  (set +u; . "$root/.mvn/select-jdk.sh"; printf '%s\n' "$JAVA_HOME")
}

# Modules of the runtime: what Spring Boot, Tomcat, Micrometer (JFR-based virtual thread metrics,
# com.sun.management CPU metrics) and JNA need. A fixed list, because jdeps cannot look inside
# a Spring Boot fat jar's nested jars. Two are for diagnosing the running service, not for the
# service itself: jdk.jfr also brings the `jfr` tool (read a recording inside the container), and
# jdk.jcmd (with jdk.attach) brings `jcmd`, to start and dump a JFR recording in a running
# container (deploy/README.md, "Recording JFR in the container"). eclipse-temurin's JRE images
# have `jfr` but no `jcmd`.
JRE_MODULES=java.base,java.desktop,java.instrument,java.logging,java.management,java.naming,java.net.http,java.prefs,java.rmi,java.scripting,java.security.jgss,java.security.sasl,java.sql,java.transaction.xa,java.xml,jdk.charsets,jdk.crypto.ec,jdk.jcmd,jdk.jfr,jdk.management,jdk.management.jfr,jdk.naming.dns,jdk.net,jdk.unsupported,jdk.zipfs

build_jre() {
  local jdk; jdk=$(find_jdk)
  say "jlink from $jdk ($(sed -n 's/^JAVA_VERSION="\(.*\)"/\1/p' "$jdk/release"))"
  mkdir -p "$work/jre"
  "$jdk/bin/jlink" --add-modules "$JRE_MODULES" --strip-debug --no-man-pages --no-header-files \
    --compress=zip-6 --output "$work/jre/runtime"
  cp "$here/local/jre.Dockerfile" "$work/jre/Dockerfile"
  docker build -q --network host --build-arg "BASE_IMAGE=$BASE_IMAGE" -t "$JRE_IMAGE" \
    --label "wordstats.recipe=$jre_recipe" "$work/jre" >/dev/null
  rm -rf "$work/jre"
}

build_service() {
  # A small build context (Dockerfile, jar, JFR settings) instead of the whole checkout.
  mkdir -p "$work/service"
  cp "$here/Dockerfile" "$work/service/Dockerfile"
  cp "$jar" "$work/service/service.jar"
  cp "$root/numa-locks/src/main/resources/wordstats-locks.jfc" "$work/service/wordstats-locks.jfc"
  docker build -q --build-arg "BASE_IMAGE=$JRE_IMAGE" --build-arg JAR=service.jar \
    --build-arg JFC=wordstats-locks.jfc -t "$SERVICE_IMAGE" "$work/service" >/dev/null
  rm -rf "$work/service"
}

base_recipe=$(printf '%s %s minbase\n' "$SUITE" "$(debian_mirror)" | sha256sum | cut -c1-16)
prometheus_recipe=$( (echo "$base_recipe"; cat "$here/local/prometheus.Dockerfile") | sha256sum | cut -c1-16)
jre_recipe=$( (echo "$base_recipe $JRE_MODULES"; cat "$here/local/jre.Dockerfile"; sed -n 's/^JAVA_VERSION=//p' "$(find_jdk)/release") | sha256sum | cut -c1-16)
if have_image "$BASE_IMAGE" "$base_recipe"; then say "$BASE_IMAGE is up to date"; else timed "base image $BASE_IMAGE" build_base; fi
if have_image "$PROMETHEUS_IMAGE" "$prometheus_recipe"; then say "$PROMETHEUS_IMAGE is up to date"; else timed "Prometheus image $PROMETHEUS_IMAGE" build_prometheus; fi
if have_image "$JRE_IMAGE" "$jre_recipe"; then say "$JRE_IMAGE is up to date"; else timed "runtime image $JRE_IMAGE" build_jre; fi
if [ "$with_service" = true ]; then
  if [ -f "$jar" ]; then
    timed "service image $SERVICE_IMAGE from $jar" build_service # always rebuilt: the jar changes
  else
    say "no service jar at $jar: build it first (./mvnw -B -ntp -pl service -am package -DskipTests), or pass --no-service"
    exit 1
  fi
fi

docker image ls --format '{{.Repository}}:{{.Tag}}  {{.Size}}' | grep '^wordstats/' | sed 's/^/local-images:   /'
cat <<'EOF'
local-images: NOTE: Grafana has no Debian package, so no Grafana image was built. An air-gapped host
local-images:       must `docker load -i grafana.tar` an image it brought (docker save grafana/grafana
local-images:       where a registry is reachable). Without it, run the stack without Grafana:
local-images:         cd deploy && docker compose -f docker-compose.yml -f docker-compose.local.yml up -d
local-images:       and add `--profile grafana` once a grafana/grafana image is loaded.
EOF
