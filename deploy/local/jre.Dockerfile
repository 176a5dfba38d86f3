# A jlinked JDK 25 runtime (made by deploy/local-images.sh) on the debootstrapped Debian base,
# plus Debian's numactl. Built with --network host (apt reaches the host's mirror).
# Same layout as eclipse-temurin:25-jre (/opt/java/openjdk, java on PATH), so deploy/Dockerfile
# builds on either.
ARG BASE_IMAGE=wordstats/debian-base:bookworm
FROM ${BASE_IMAGE}
# numactl: docker-compose.numa.yml binds the JVM to one node with it.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends numactl \
 && apt-get clean && rm -rf /var/lib/apt/lists/*
COPY runtime /opt/java/openjdk
ENV JAVA_HOME=/opt/java/openjdk \
    PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
CMD ["java", "-version"]
