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
            assertThat(lock.path("definition").asText()).matches("label_values\\(wordstats_lock_\\w+,\\s*lock\\)");
        }
    }

    @Test
    void rateWindowsUseRateIntervalAndLockPanelsFilterByTheLockVariable() {
        List<String> problems = new ArrayList<>();
        for (DashboardQueries.Query query : DashboardQueries.all()) {
            Matcher ranges = RANGE.matcher(query.expr());
            while (ranges.find()) {
                if (!ranges.group(1).equals("$__rate_interval")) {
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
