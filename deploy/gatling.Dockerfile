# The demo load generator: Gatling with this project's simulations (load-tests), built from the
# classes and the class path `./mvnw -B -ntp package -DskipTests` leaves in load-tests/target
# (test-classes/ and gatling-lib/). docker-compose.yml builds it for the `demo` profile, from the
# checkout root, on the same runtime image as the service (BASE_IMAGE: eclipse-temurin:25-jre, or
# wordstats/jre:25-local without a registry). No network at build time.
ARG BASE_IMAGE=eclipse-temurin:25-jre
FROM ${BASE_IMAGE}
WORKDIR /gatling
# Least often changed first: Gatling and its libraries, then the simulations, then the loop.
COPY load-tests/target/gatling-lib/ /gatling/lib/
COPY load-tests/target/test-classes/ /gatling/classes/
COPY deploy/demo-load.sh /gatling/demo-load.sh
USER 65534:65534
ENV HOME=/tmp
ENTRYPOINT ["bash", "/gatling/demo-load.sh"]
