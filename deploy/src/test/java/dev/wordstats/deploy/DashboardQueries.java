package dev.wordstats.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The Grafana dashboards of grafana/dashboards and the Prometheus expressions of their panels. */
final class DashboardQueries {

    static final ObjectMapper JSON = new ObjectMapper();

    /** One panel target: where it comes from and its expression with Grafana's variables in it. */
    record Query(String dashboard, String panel, String refId, String expr) {

        /**
         * The expression Prometheus would get from Grafana, for one lock type, every job and instance
         * ("All": {@code .+}), and a rate window that also stands for the dashboard's time range.
         */
        String substituted(String lock, String rateInterval) {
            return substitute(expr, lock, rateInterval);
        }

        @Override
        public String toString() {
            return dashboard + " / " + panel + " [" + refId + "]: " + expr;
        }
    }

    private DashboardQueries() {}

    /** Grafana's variables in {@code expr} replaced as {@link Query#substituted} describes. */
    static String substitute(String expr, String lock, String rateInterval) {
        return expr.replace("${lock}", lock)
                .replace("$lock", lock)
                .replace("${job}", ".+")
                .replace("$job", ".+")
                .replace("${instance}", ".+")
                .replace("$instance", ".+")
                .replace("${__rate_interval}", rateInterval)
                .replace("$__rate_interval", rateInterval)
                .replace(
                        "$__range_s",
                        Long.toString(java.time.Duration.parse("PT" + rateInterval.toUpperCase(java.util.Locale.ROOT))
                                .toSeconds()))
                .replace("${__range}", rateInterval)
                .replace("$__range", rateInterval);
    }

    /** The annotation queries (Prometheus ones) of every dashboard: name and expression. */
    static List<Query> annotations() {
        List<Query> out = new ArrayList<>();
        for (Path file : dashboardFiles()) {
            for (JsonNode annotation : read(file).path("annotations").path("list")) {
                if (!annotation.path("expr").asText().isBlank()) {
                    out.add(new Query(
                            file.getFileName().toString(),
                            "annotation " + annotation.path("name").asText(),
                            "-",
                            annotation.path("expr").asText()));
                }
            }
        }
        return out;
    }

    static Path grafanaDir() {
        return Path.of(System.getProperty("wordstats.grafana.dir", "../grafana"));
    }

    static Path deployDir() {
        return Path.of(System.getProperty("wordstats.deploy.dir", "."));
    }

    static List<Path> dashboardFiles() {
        try (Stream<Path> files = Files.list(grafanaDir().resolve("dashboards"))) {
            return files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode read(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot parse " + file, e);
        }
    }

    /** Every panel, rows' nested panels included, rows themselves left out. */
    static List<JsonNode> panels(JsonNode dashboard) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            if ("row".equals(panel.path("type").asText())) {
                panel.path("panels").forEach(out::add);
            } else {
                out.add(panel);
            }
        }
        return out;
    }

    static List<Query> all() {
        List<Query> out = new ArrayList<>();
        for (Path file : dashboardFiles()) {
            JsonNode dashboard = read(file);
            for (JsonNode panel : panels(dashboard)) {
                for (JsonNode target : panel.path("targets")) {
                    out.add(new Query(
                            file.getFileName().toString(),
                            panel.path("title").asText(),
                            target.path("refId").asText(),
                            target.path("expr").asText()));
                }
            }
        }
        return out;
    }
}
