package dev.wordstats.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
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
                .containsPattern("(?m)^  lock:\\n(    #.*\\n)*    type: (NUMA_MCS|FAIR_REENTRANT|UNFAIR_REENTRANT)$");
        String compose = Files.readString(DashboardQueries.deployDir().resolve("docker-compose.yml"));
        assertThat(compose)
                .contains("./application.yml:/app/config/application.yml:ro")
                .contains("- WORDSTATS_LOCK_TYPE\n");
    }
}
