package dev.wordstats.benchmarks.runner;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * Bar charts of a run (XChart, PNG, headless): x = the bench (and method), one bar per lock.
 * Throughput is charted once per counted unit (actions/s and lines/s do not share an axis).
 */
final class Charts {

    private Charts() {}

    /** Writes every chart that the rows support into {@code dir}; returns the files written. */
    static List<Path> write(String title, List<ResultRow> rows, Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        Set<String> units = new LinkedHashSet<>();
        rows.forEach(r -> units.add(r.unit()));
        for (String unit : units) {
            List<ResultRow> ofUnit =
                    rows.stream().filter(r -> r.unit().equals(unit)).toList();
            files.add(bar(
                    title + ": throughput (" + unit + "/s, higher is better)",
                    unit + "/s",
                    ofUnit,
                    ResultRow::throughput,
                    ResultRow::throughputError,
                    dir.resolve("throughput-" + unit.replaceAll("[^A-Za-z0-9]+", "-") + ".png")));
        }
        List<ResultRow> ratios = rows.stream()
                .filter(r -> !Double.isNaN(r.ratioToBestReentrant()))
                .toList();
        if (!ratios.isEmpty()) {
            files.add(bar(
                    title + ": throughput / best ReentrantLock (1.0 = as good as the best)",
                    "ratio",
                    ratios,
                    ResultRow::ratioToBestReentrant,
                    null,
                    dir.resolve("ratio-to-best-reentrant.png")));
        }
        secondary(title, rows, "waitP99Us", "wait p99 (µs, lower is better)", dir, files);
        secondary(title, rows, "fairness", "Jain's fairness index (1.0 = equal shares)", dir, files);
        secondary(title, rows, "crossNodePct", "cross-node handoffs (%)", dir, files);
        return files;
    }

    private static void secondary(
            String title, List<ResultRow> rows, String key, String label, Path dir, List<Path> files)
            throws IOException {
        List<ResultRow> with =
                rows.stream().filter(r -> r.secondary().containsKey(key)).toList();
        if (!with.isEmpty()) {
            files.add(bar(
                    title + ": " + label, label, with, r -> r.secondary().get(key), null, dir.resolve(key + ".png")));
        }
    }

    /** A label per group: bench (and method), plus the parameters that differ within the bench. */
    static Map<String, String> labels(List<ResultRow> rows) {
        Map<String, Map<String, Set<String>>> valuesByBench = new LinkedHashMap<>();
        for (ResultRow row : rows) {
            Map<String, Set<String>> values =
                    valuesByBench.computeIfAbsent(row.groupLabel(), b -> new LinkedHashMap<>());
            row.params()
                    .forEach((k, v) -> values.computeIfAbsent(k, x -> new LinkedHashSet<>())
                            .add(v));
        }
        Map<String, String> labels = new LinkedHashMap<>();
        for (ResultRow row : rows) {
            StringBuilder label = new StringBuilder(row.groupLabel());
            valuesByBench.get(row.groupLabel()).forEach((k, v) -> {
                if (v.size() > 1) {
                    label.append(' ').append(k).append('=').append(row.params().get(k));
                }
            });
            labels.put(row.groupKey(), label.toString());
        }
        return labels;
    }

    private static Path bar(
            String title,
            String yTitle,
            List<ResultRow> rows,
            ToDoubleFunction<ResultRow> value,
            ToDoubleFunction<ResultRow> error,
            Path file)
            throws IOException {
        Map<String, String> labels = labels(rows);
        List<String> groups = new ArrayList<>(new LinkedHashSet<>(
                rows.stream().map(r -> labels.get(r.groupKey())).toList()));
        Map<String, Map<String, ResultRow>> byLock = new LinkedHashMap<>();
        for (ResultRow row : rows) {
            byLock.computeIfAbsent(row.lock(), l -> new LinkedHashMap<>()).put(labels.get(row.groupKey()), row);
        }
        CategoryChart chart = new CategoryChartBuilder()
                .width(Math.max(Math.max(900, 160 * groups.size() * byLock.size()), 8 * title.length()))
                .height(560)
                .title(title)
                .xAxisTitle("bench")
                .yAxisTitle(yTitle)
                .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setLabelsVisible(true);
        chart.getStyler().setLabelsRotation(0);
        chart.getStyler().setYAxisDecimalPattern("#,##0.###");
        chart.getStyler()
                .setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(14f));
        for (Map.Entry<String, Map<String, ResultRow>> series : byLock.entrySet()) {
            List<Double> ys = new ArrayList<>();
            List<Double> errors = new ArrayList<>();
            for (String group : groups) {
                ResultRow row = series.getValue().get(group);
                ys.add(row == null ? 0.0 : value.applyAsDouble(row));
                double e = row == null || error == null ? 0.0 : error.applyAsDouble(row);
                errors.add(Double.isFinite(e) ? e : 0.0);
            }
            String name = "-".equals(series.getKey()) ? "result" : series.getKey();
            if (error != null) {
                chart.addSeries(name, groups, ys, errors);
            } else {
                chart.addSeries(name, groups, ys);
            }
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return file;
    }
}
