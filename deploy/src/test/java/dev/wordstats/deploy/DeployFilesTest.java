package dev.wordstats.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** What the compose files, prometheus.yml and the Grafana provisioning promise, read as text. */
class DeployFilesTest {

    private static final Pattern PORT = Pattern.compile("^\\s*-\\s*\"?([^\"\\s]+:\\d+(/\\w+)?)\"?\\s*$");

    @Test
    void everyPublishedPortIsBoundToLoopback() throws IOException {
        List<String> published = new ArrayList<>();
        try (Stream<Path> files = Files.list(DashboardQueries.deployDir())) {
            for (Path file : files.filter(f -> f.getFileName().toString().matches("docker-compose.*\\.ya?ml"))
                    .toList()) {
                boolean inPorts = false;
                for (String line : Files.readAllLines(file)) {
                    if (line.trim().equals("ports:")) {
                        inPorts = true;
                        continue;
                    }
                    Matcher port = PORT.matcher(line);
                    if (inPorts && port.matches()) {
                        published.add(file.getFileName() + ": " + port.group(1));
                    } else if (!line.isBlank()) {
                        inPorts = false;
                    }
                }
            }
        }
        assertThat(published).isNotEmpty().allSatisfy(p -> assertThat(p).contains(": 127.0.0.1:"));
    }

    @Test
    void prometheusScrapesTheActuatorEveryFiveSeconds() throws IOException {
        String config = Files.readString(DashboardQueries.deployDir().resolve("prometheus.yml"));
        assertThat(config)
                .contains("metrics_path: /actuator/prometheus")
                .contains("scrape_interval: 5s")
                .contains("targets: [\"service:8080\"]");
    }

    @Test
    void grafanaProvisioningHasAFixedDatasourceUidAndAFileProviderForTheMountedDashboards() throws IOException {
        Path provisioning = DashboardQueries.grafanaDir().resolve("provisioning");
        String datasource = Files.readString(provisioning.resolve("datasources/prometheus.yml"));
        assertThat(datasource)
                .contains("uid: wordstats-prometheus")
                .contains("type: prometheus")
                .contains("url: http://prometheus:9090");
        String provider = Files.readString(provisioning.resolve("dashboards/wordstats.yml"));
        assertThat(provider).contains("type: file").contains("path: /var/lib/grafana/dashboards");
        String compose = Files.readString(DashboardQueries.deployDir().resolve("docker-compose.yml"));
        assertThat(compose)
                .contains("../grafana/dashboards:/var/lib/grafana/dashboards:ro")
                .contains("../grafana/provisioning:/etc/grafana/provisioning:ro");
    }

    @Test
    void theLockIsSwitchedByTheMountedApplicationYml() throws IOException {
        String yml = Files.readString(DashboardQueries.deployDir().resolve("application.yml"));
        assertThat(yml)
                .containsPattern("(?m)^  lock:\\n(    #.*\\n)*    type: " + DeployStackTest.CONFIGURED_LOCK + "$");
        String compose = Files.readString(DashboardQueries.deployDir().resolve("docker-compose.yml"));
        assertThat(compose)
                .contains("./application.yml:/app/config/application.yml:ro")
                .contains("- WORDSTATS_LOCK_TYPE\n");
    }

    @Test
    void theCountsLiveOnANamedVolumeAndTheCredentialReachesTheServiceAndTheDemo() throws IOException {
        String compose = Files.readString(DashboardQueries.deployDir().resolve("docker-compose.yml"));
        assertThat(compose)
                .contains("      - wordstats-data:/data\n")
                .containsPattern("(?m)^volumes:\n(  #.*\n)*  wordstats-data:$")
                .contains("      - SPRING_SECURITY_USER_NAME=${WORDSTATS_ADMIN_USER:-admin}\n")
                .contains("      - SPRING_SECURITY_USER_PASSWORD=${WORDSTATS_ADMIN_PASSWORD:-}\n")
                .contains("      - WORDSTATS_ADMIN_PASSWORD=${WORDSTATS_ADMIN_PASSWORD:-}\n");
        String dockerfile = Files.readString(DashboardQueries.deployDir().resolve("Dockerfile"));
        assertThat(dockerfile)
                .contains("RUN mkdir -p /data && chown 65534:65534 /data")
                .contains("ENV WORDSTATS_STORE_DATADIR=/data")
                .contains("VOLUME /data");
        String load = Files.readString(DashboardQueries.deployDir().resolve("demo-load.sh"));
        assertThat(load).contains("WORDSTATS_ADMIN_PASSWORD");
    }

    @Test
    void numaOverridesRefuseToStartWithoutExplicitCpuSets() throws IOException {
        for (String file : List.of("docker-compose.numa.yml", "docker-compose.numa2.yml")) {
            String compose = Files.readString(DashboardQueries.deployDir().resolve(file));
            Matcher variable = Pattern.compile("\\$\\{(SERVICE_CPUS|SERVICE_NODE|MONITOR_CPUS)([^}]*)}")
                    .matcher(compose);
            int uses = 0;
            while (variable.find()) {
                uses++;
                assertThat(variable.group(2))
                        .as("%s: ${%s...} must be required (:?), with what to set", file, variable.group(1))
                        .startsWith(":?set " + variable.group(1))
                        .contains("lscpu");
            }
            assertThat(uses).as(file).isGreaterThanOrEqualTo(3);
        }
        String twoNodes = Files.readString(DashboardQueries.deployDir().resolve("docker-compose.numa2.yml"));
        assertThat(twoNodes)
                .as("the two-node variant runs the JVM on both nodes: no numactl entrypoint")
                .doesNotContain("entrypoint");
    }

    @Test
    void demoProfileAddsAGatlingLoadGeneratorOnTheServiceLoopback() throws IOException {
        String compose = Files.readString(DashboardQueries.deployDir().resolve("docker-compose.yml"));
        assertThat(compose)
                .contains("  load:\n    profiles: [\"demo\"]\n")
                .contains("dockerfile: deploy/gatling.Dockerfile")
                .contains("network_mode: \"service:service\"");
        String dockerfile = Files.readString(DashboardQueries.deployDir().resolve("gatling.Dockerfile"));
        assertThat(dockerfile)
                .contains("COPY load-tests/target/gatling-lib/ ")
                .contains("COPY load-tests/target/test-classes/ ");
        String load = Files.readString(DashboardQueries.deployDir().resolve("demo-load.sh"));
        assertThat(load).contains("http://127.0.0.1:8080").contains("io.gatling.app.Gatling");
        String ignore = Files.readString(DashboardQueries.deployDir().resolve("../.dockerignore"));
        assertThat(ignore)
                .contains(
                        "!load-tests/target/gatling-lib/", "!load-tests/target/test-classes/", "!deploy/demo-load.sh");
    }

    @Test
    void serviceImageIsBuiltFromSpringBootLayers() throws IOException {
        String dockerfile = Files.readString(DashboardQueries.deployDir().resolve("Dockerfile"));
        assertThat(dockerfile).contains("java -Djarmode=tools -jar service.jar extract --layers");
        List<String> copies = dockerfile
                .lines()
                .filter(l -> l.startsWith("COPY --from=layers "))
                .map(l -> l.split(" ")[2])
                .toList();
        assertThat(copies)
                .as("dependencies first, the application last")
                .containsExactly(
                        "/extract/layers/dependencies/",
                        "/extract/layers/spring-boot-loader/",
                        "/extract/layers/snapshot-dependencies/",
                        "/extract/layers/application/");
    }

    @Test
    void jfrOverrideRecordsTheLockEventsWithTheSettingsTheImageCarries() throws IOException {
        String override = Files.readString(DashboardQueries.deployDir().resolve("docker-compose.jfr.yml"));
        assertThat(override)
                .as("the recording in JDK_JAVA_OPTIONS (read by java, not by jcmd or jfr beside it)")
                .contains("      - JDK_JAVA_OPTIONS=-XX:StartFlightRecording:")
                .contains("settings=default,settings=/app/wordstats-locks.jfc,")
                .contains("filename=/data/wordstats-%t.jfr\n")
                .doesNotContain("JAVA_TOOL_OPTIONS=");
        String dockerfile = Files.readString(DashboardQueries.deployDir().resolve("Dockerfile"));
        assertThat(dockerfile)
                .contains("ARG JFC=numa-locks/src/main/resources/wordstats-locks.jfc\n")
                .contains("COPY ${JFC} /app/wordstats-locks.jfc\n");
        assertThat(DashboardQueries.deployDir().resolve("../numa-locks/src/main/resources/wordstats-locks.jfc"))
                .isRegularFile();
        String ignore = Files.readString(DashboardQueries.deployDir().resolve("../.dockerignore"));
        assertThat(ignore).contains("!numa-locks/src/main/resources/wordstats-locks.jfc\n");
    }

    @Test
    void composeWaitsLongerForTheServiceToStopThanTheGracefulShutdownMayTake() throws IOException {
        Path serviceYml = DashboardQueries.deployDir().resolve("../service/src/main/resources/application.yml");
        Duration shutdownPhase = Duration.ZERO;
        for (Path yml : List.of(serviceYml, DashboardQueries.deployDir().resolve("application.yml"))) {
            Matcher phase = Pattern.compile("(?m)^  lifecycle:\n(?:    #.*\n)*    timeout-per-shutdown-phase: (\\d+)s$")
                    .matcher(Files.readString(yml));
            if (phase.find()) {
                shutdownPhase = Duration.ofSeconds(Long.parseLong(phase.group(1)));
            } else {
                assertThat(yml)
                        .as("only the service's application.yml may leave it out")
                        .isNotEqualTo(serviceYml);
            }
        }
        assertThat(shutdownPhase)
                .as("spring.lifecycle.timeout-per-shutdown-phase")
                .isPositive();
        String compose = Files.readString(DashboardQueries.deployDir().resolve("docker-compose.yml"));
        Matcher grace = Pattern.compile("(?m)^  service:\n(?:    .*\n|\\s*\n)*?    stop_grace_period: (\\d+)s$")
                .matcher(compose);
        assertThat(grace.find())
                .as("docker-compose.yml sets the service's stop_grace_period")
                .isTrue();
        Duration stopGrace = Duration.ofSeconds(Long.parseLong(grace.group(1)));
        assertThat(stopGrace)
                .as("room for the shutdown phase and the last snapshot write")
                .isGreaterThanOrEqualTo(shutdownPhase.plusSeconds(10));
    }

    @Test
    void grafanasAdminPasswordComesFromTheEnvironmentWithNoDefault() throws IOException {
        try (Stream<Path> files = Files.list(DashboardQueries.deployDir())) {
            for (Path file : files.filter(f -> f.getFileName().toString().matches("docker-compose.*\\.ya?ml"))
                    .toList()) {
                String compose = Files.readString(file);
                assertThat(compose).as(file.getFileName().toString()).doesNotContain("admin/admin");
                Matcher password = Pattern.compile("GF_SECURITY_ADMIN_PASSWORD[=:]\\s*(.*)")
                        .matcher(compose);
                while (password.find()) {
                    assertThat(password.group(1))
                            .as(file.getFileName().toString())
                            .startsWith("${GRAFANA_ADMIN_PASSWORD:?set GRAFANA_ADMIN_PASSWORD");
                }
            }
        }
        assertThat(Files.readString(DashboardQueries.deployDir().resolve("docker-compose.yml")))
                .contains("GF_SECURITY_ADMIN_PASSWORD=${GRAFANA_ADMIN_PASSWORD:?");
    }

    /** Debian's docker-compose 1.29 (no engine needed) accepts every file combination and profile. */
    @Test
    void dockerComposeAcceptsEveryFileAndProfile() throws Exception {
        Assumptions.assumeTrue(onPath("docker-compose"), "docker-compose 1.29 is not installed (.ci/run installs it)");
        List<List<String>> fileSets = List.of(
                List.of(),
                List.of("-f", "docker-compose.yml", "-f", "docker-compose.local.yml"),
                List.of("-f", "docker-compose.yml", "-f", "docker-compose.numa.yml"),
                List.of("-f", "docker-compose.yml", "-f", "docker-compose.local.yml", "-f", "docker-compose.numa.yml"),
                List.of("-f", "docker-compose.yml", "-f", "docker-compose.numa2.yml"),
                List.of("-f", "docker-compose.yml", "-f", "docker-compose.jfr.yml"),
                List.of("-f", "docker-compose.yml", "-f", "docker-compose.local.yml", "-f", "docker-compose.jfr.yml"));
        List<List<String>> profiles = List.of(List.of(), List.of("--profile", "demo"), List.of("--profile", "grafana"));
        Map<String, String> cpus = Map.of(
                "SERVICE_CPUS", "0", "SERVICE_NODE", "0", "MONITOR_CPUS", "0", "GRAFANA_ADMIN_PASSWORD", "check-only");
        for (List<String> files : fileSets) {
            for (List<String> profile : profiles) {
                List<String> command = new ArrayList<>(List.of("docker-compose"));
                command.addAll(files);
                command.addAll(profile);
                command.addAll(List.of("config", "-q"));
                assertThat(compose(command, cpus)).as(String.join(" ", command)).isEmpty();
            }
        }
        assertThat(compose(
                        List.of(
                                "docker-compose",
                                "-f",
                                "docker-compose.yml",
                                "-f",
                                "docker-compose.numa.yml",
                                "config"),
                        Map.of("GRAFANA_ADMIN_PASSWORD", "check-only")))
                .as("without CPU sets the NUMA override refuses and says what to set")
                .contains("set SERVICE_CPUS to the CPUs of one NUMA node", "lscpu");
    }

    @Test
    void dockerComposeRefusesToStartGrafanaWithoutAnAdminPassword() throws Exception {
        Assumptions.assumeTrue(onPath("docker-compose"), "docker-compose 1.29 is not installed (.ci/run installs it)");
        assertThat(compose(List.of("docker-compose", "config", "-q"), Map.of())).contains("set GRAFANA_ADMIN_PASSWORD");
    }

    /** Runs a compose command in deploy/ without the CPU variables of this shell; "" when it succeeds. */
    private static String compose(List<String> command, Map<String, String> env) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(DashboardQueries.deployDir().toFile())
                .redirectErrorStream(true);
        builder.environment()
                .keySet()
                .removeAll(List.of("SERVICE_CPUS", "SERVICE_NODE", "MONITOR_CPUS", "GRAFANA_ADMIN_PASSWORD"));
        builder.environment().putAll(env);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return process.exitValue() == 0 ? "" : "exit " + process.exitValue() + ": " + output;
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        return path != null
                && Stream.of(path.split(java.io.File.pathSeparator))
                        .anyMatch(dir -> Files.isExecutable(Path.of(dir, program)));
    }
}
