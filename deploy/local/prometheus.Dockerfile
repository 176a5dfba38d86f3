# Prometheus from Debian's `prometheus` package, for hosts without a container registry.
# Built by deploy/local-images.sh (with --network host, so apt reaches the host's mirror).
# Laid out like prom/prometheus (entrypoint, /etc/prometheus, /prometheus, user nobody), so
# docker-compose.yml's command and health check work with either image.
ARG BASE_IMAGE=wordstats/debian-base:bookworm
FROM ${BASE_IMAGE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends prometheus \
 && apt-get clean && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /prometheus && chown 65534:65534 /prometheus \
 && ln -sf /usr/bin/prometheus /bin/prometheus 2>/dev/null || true
USER 65534:65534
WORKDIR /prometheus
EXPOSE 9090
ENTRYPOINT ["/usr/bin/prometheus"]
CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus"]
