package dev.wordstats.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Structure of the provisioned dashboards: what file provisioning and the dashboard variables
 * need, checked without Grafana. (That every query returns data is {@link DeployStackTest}'s job.)
 */
class DashboardJsonTest {

    private static final String DATASOURCE_UID = "${datasource}";
    private static final Pattern RANGE = Pattern.compile("\\[([^\\]]+)]");

    @Test
    void thereIsAtLeastOneDashboardWithPanels() {
        assertThat(DashboardQueries.dashboardFiles()).isNotEmpty();
        for (Path file : DashboardQueries.dashboardFiles()) {
            assertThat(DashboardQueries.panels(DashboardQueries.read(file)))
                    .as(file.toString())
                    .hasSizeGreaterThan(5);
        }
    }

    @Test
    void everyPanelUsesTheDatasourceVariableHasAUnitAndTargets() {
        List<String> problems = new ArrayList<>();
        for (Path file : DashboardQueries.dashboardFiles()) {
            for (JsonNode panel : DashboardQueries.panels(DashboardQueries.read(file))) {
                String where = file.getFileName() + " / " + panel.path("title").asText("(untitled)");
                if (!DATASOURCE_UID.equals(panel.path("datasource").path("uid").asText())) {
                    problems.add(where + ": panel datasource uid is not " + DATASOURCE_UID);
                }
                if (panel.path("fieldConfig")
                        .path("defaults")
                        .path("unit")
                        .asText()
                        .isBlank()) {
                    problems.add(where + ": no unit");
                }
                JsonNode targets = panel.path("targets");
                if (!targets.isArray() || targets.isEmpty()) {
                    problems.add(where + ": no targets");
                }
                for (JsonNode target : targets) {
                    if (target.path("expr").asText().isBlank()) {
                        problems.add(where + " [" + target.path("refId").asText() + "]: empty expr");
                    }
                    if (!DATASOURCE_UID.equals(
                            target.path("datasource").path("uid").asText())) {
                        problems.add(where + " [" + target.path("refId").asText() + "]: target datasource uid is not "
                                + DATASOURCE_UID);
                    }
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void panelIdsAreUniqueAndTheDashboardUidIsFixed() {
        Set<String> uids = new HashSet<>();
        for (Path file : DashboardQueries.dashboardFiles()) {
            JsonNode dashboard = DashboardQueries.read(file);
            assertThat(dashboard.path("uid").asText()).as(file + " uid").isNotBlank();
            assertThat(uids.add(dashboard.path("uid").asText()))
                    .as(file + " uid unique")
                    .isTrue();
            Set<Integer> ids = new HashSet<>();
            for (JsonNode panel : dashboard.path("panels")) {
                assertThat(ids.add(panel.path("id").asInt()))
                        .as(file + " panel id " + panel.path("id"))
                        .isTrue();
            }
        }
    }

    @Test
    void noDashboardNeedsImportInputs() throws IOException {
        // File provisioning cannot resolve ${DS_...} inputs: a dashboard that has them shows "datasource not found".
        for (Path file : DashboardQueries.dashboardFiles()) {
            String text = Files.readString(file);
            assertThat(text).as(file.toString()).doesNotContain("${DS_").doesNotContain("\"__inputs\"");
        }
    }

    @Test
    void dashboardsHaveADatasourceVariableAndALockVariableFromTheLockTag() {
        for (Path file : DashboardQueries.dashboardFiles()) {
            JsonNode vars = DashboardQueries.read(file).path("templating").path("list");
            JsonNode datasource = variable(vars, "datasource");
            assertThat(datasource.path("type").asText()).isEqualTo("datasource");
            assertThat(datasource.path("query").asText()).isEqualTo("prometheus");
            JsonNode lock = variable(vars, "lock");
            assertThat(lock.path("type").asText()).isEqualTo("query");
            assertThat(lock.path("datasource").path("uid").asText()).isEqualTo(DATASOURCE_UID);
            assertThat(lock.path("definition").asText())
                    .matches("label_values\\(wordstats_lock_\\w+(\\{[^}]*})?,\\s*lock\\)");
        }
    }

    @Test
    void jobAndInstanceAreMultiSelectVariablesWhoseAllMatchesEverything() {
        for (Path file : DashboardQueries.dashboardFiles()) {
            JsonNode vars = DashboardQueries.read(file).path("templating").path("list");
            for (String name : List.of("job", "instance", "lock")) {
                JsonNode var = variable(vars, name);
                assertThat(var.path("type").asText()).as(name).isEqualTo("query");
                assertThat(var.path("multi").asBoolean()).as(name + " multi").isTrue();
                assertThat(var.path("includeAll").asBoolean())
                        .as(name + " includeAll")
                        .isTrue();
                assertThat(var.path("allValue").asText()).as(name + " allValue").isEqualTo(".+");
                assertThat(var.path("refresh").asInt())
                        .as(name + " refresh on time range change")
                        .isEqualTo(2);
            }
        }
    }

    @Test
    void everyQueryAndAnnotationSelectsByJobAndInstance() {
        List<String> problems = new ArrayList<>();
        List<DashboardQueries.Query> all = new ArrayList<>(DashboardQueries.all());
        all.addAll(DashboardQueries.annotations());
        assertThat(DashboardQueries.annotations())
                .extracting(DashboardQueries.Query::panel)
                .contains("annotation Instance started", "annotation Lock type changed");
        Pattern selector = Pattern.compile("[a-z_]+\\{([^}]*)}");
        for (DashboardQueries.Query query : all) {
            Matcher m = selector.matcher(query.expr());
            int selectors = 0;
            while (m.find()) {
                selectors++;
                if (!m.group(1).contains("job=~\"$job\"") || !m.group(1).contains("instance=~\"$instance\"")) {
                    problems.add(query + ": selector {" + m.group(1) + "} without job and instance matchers");
                }
            }
            if (selectors == 0) {
                problems.add(query + ": no label selector");
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void everyPanelSaysHowToReadIt() {
        for (Path file : DashboardQueries.dashboardFiles()) {
            for (JsonNode panel : DashboardQueries.panels(DashboardQueries.read(file))) {
                assertThat(panel.path("description").asText())
                        .as(file.getFileName() + " / " + panel.path("title").asText() + " description")
                        .hasSizeGreaterThan(60);
            }
        }
    }

    @Test
    void theDashboardHasTheHeatmapTheCrossNodeShareAndThePerLockSummary() {
        JsonNode dashboard = DashboardQueries.read(DashboardQueries.grafanaDir().resolve("dashboards/wordstats.json"));
        List<JsonNode> panels = DashboardQueries.panels(dashboard);
        assertThat(panels).anySatisfy(p -> {
            assertThat(p.path("type").asText()).isEqualTo("heatmap");
            assertThat(p.path("targets").get(0).path("format").asText()).isEqualTo("heatmap");
            assertThat(p.path("targets").get(0).path("expr").asText())
                    .contains("wordstats_lock_wait_seconds_bucket")
                    .contains("path=\"slow\"");
        });
        assertThat(panels).anySatisfy(p -> {
            assertThat(p.path("fieldConfig").path("defaults").path("unit").asText())
                    .isEqualTo("percent");
            assertThat(p.path("targets").get(0).path("expr").asText()).contains("locality=\"cross_node\"");
        });
        assertThat(panels).anySatisfy(p -> {
            assertThat(p.path("type").asText()).isEqualTo("table");
            assertThat(p.path("targets")).allSatisfy(t -> {
                assertThat(t.path("instant").asBoolean()).isTrue();
                assertThat(t.path("expr").asText()).contains("[$__range]").contains("by (lock");
            });
        });
        assertThat(DashboardQueries.all())
                .extracting(DashboardQueries.Query::expr)
                .anyMatch(e -> e.startsWith("histogram_quantile(0.999,") && e.contains("wordstats_lock_wait"));
    }

    @Test
    void substitutionFillsEveryVariable() {
        for (DashboardQueries.Query query : DashboardQueries.all()) {
            assertThat(query.substituted("NUMA_MCS", "1m")).as(query.toString()).doesNotContain("$");
        }
        assertThat(DashboardQueries.substitute("increase(x[$__range]) / $__range_s", "L", "2m"))
                .isEqualTo("increase(x[2m]) / 120");
    }

    @Test
    void rateWindowsUseRateIntervalAndLockPanelsFilterByTheLockVariable() {
        List<String> problems = new ArrayList<>();
        for (DashboardQueries.Query query : DashboardQueries.all()) {
            Matcher ranges = RANGE.matcher(query.expr());
            while (ranges.find()) {
                // [$__range] only in the tables over the selected time range (increase, not rate)
                boolean ok = ranges.group(1).equals("$__rate_interval")
                        || (ranges.group(1).equals("$__range") && !query.expr().contains("rate("));
                if (!ok) {
                    problems.add(query + ": range [" + ranges.group(1) + "] instead of [$__rate_interval]");
                }
            }
            if (query.expr().contains("wordstats_lock_") && !query.expr().contains("lock=~\"$lock\"")) {
                problems.add(query + ": a lock metric without lock=~\"$lock\"");
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void theDashboardCoversTheMetricsTheServiceEmits() {
        String exprs = String.join(
                "\n",
                DashboardQueries.all().stream()
                        .map(DashboardQueries.Query::expr)
                        .toList());
        assertThat(exprs)
                .contains(
                        "wordstats_lock_wait_seconds_bucket",
                        "wordstats_lock_wait_seconds_max",
                        "wordstats_lock_held_seconds_bucket",
                        "wordstats_lock_acquisitions_total",
                        "wordstats_lock_handoffs_total",
                        "wordstats_lock_mode_switches_total",
                        "wordstats_words_counted_total",
                        "wordstats_words_distinct",
                        "http_server_requests_seconds_count",
                        "http_server_requests_seconds_bucket",
                        "jvm_threads_virtual_live_threads",
                        "jvm_threads_virtual_pinned_seconds_count",
                        "jvm_memory_used_bytes",
                        "jvm_gc_pause_seconds_sum",
                        "process_cpu_usage",
                        "system_cpu_usage");
    }

    private static JsonNode variable(JsonNode vars, String name) {
        for (JsonNode var : vars) {
            if (name.equals(var.path("name").asText())) {
                return var;
            }
        }
        throw new AssertionError("no dashboard variable named " + name);
    }
}
