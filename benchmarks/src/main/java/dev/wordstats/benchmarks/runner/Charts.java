package dev.wordstats.benchmarks.runner;

import java.awt.Color;
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
import org.knowm.xchart.HeatMapChart;
import org.knowm.xchart.HeatMapChartBuilder;
import org.knowm.xchart.style.HeatMapStyler;
import org.knowm.xchart.style.Styler;

/**
 * Bar charts of a run (XChart, PNG, headless): x = the bench (and method), one bar per lock.
 * Throughput is charted once per counted unit (actions/s and lines/s do not share an axis), with
 * JMH's 99.9% confidence interval as error bars. When every bar is high above 0 and the bars differ
 * by little, the value axis starts near the lowest bar instead of 0 ({@link #axisMin}), so a 4%
 * difference is visible, and the chart's title says that the axis does not start at 0.
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
                    // this lock's own 99.9% interval carried into the ratio (the best's is left out)
                    r -> r.ratioToBestReentrant() * r.throughputError() / r.throughput(),
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

    /**
     * The regime matrix as a heat map: a column per lock, a row per case, each cell the median over
     * the repeats of the lock's throughput over the better of {@link RegimeMatrix#REFERENCES} in the
     * same repeat, written in the cell. White is 1.00 (as good as the best JDK lock), red below, green
     * above; the colour saturates at 0 and at {@link #MATRIX_COLOUR_MAX}, so the lock-free bounds (2x to
     * 5x) do not wash out the differences between locks. The spread of each figure is in the Markdown
     * table beside it.
     */
    static Path matrix(String name, List<RegimeMatrix.Row> rows, Path file) throws IOException {
        List<String> locks = RegimeMatrix.locks(rows);
        List<String> labels = new ArrayList<>();
        List<Number[]> cells = new ArrayList<>();
        // XChart draws the first y value at the bottom: the last row goes first, so the top row is the first
        for (int y = 0; y < rows.size(); y++) {
            RegimeMatrix.Row row = rows.get(rows.size() - 1 - y);
            labels.add(row.label());
            for (int x = 0; x < locks.size(); x++) {
                RegimeMatrix.Cell cell = row.cells().get(locks.get(x));
                if (RegimeMatrix.hasRatio(cell)) {
                    cells.add(new Number[] {x, y, cell.toBest().median()});
                }
            }
        }
        String title = name + ": throughput / the better of " + String.join(" and ", RegimeMatrix.REFERENCES)
                + " in the same repeat (median of the repeats)";
        HeatMapChart chart = new HeatMapChartBuilder()
                .width(Math.max(260 + 120 * locks.size(), 10 * title.length()))
                .height(160 + 30 * rows.size())
                .title(title)
                .build();
        HeatMapStyler styler = chart.getStyler();
        styler.setShowValue(true);
        styler.setHeatMapValueDecimalPattern("0.00");
        styler.setRangeColors(new Color[] {new Color(0xD7191C), Color.WHITE, new Color(0x1A9641)});
        styler.setMin(0);
        styler.setMax(MATRIX_COLOUR_MAX);
        styler.setLegendVisible(false);
        styler.setChartTitleFont(styler.getChartTitleFont().deriveFont(14f));
        chart.addSeries("ratio", locks, labels, cells);
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return file;
    }

    /** The matrix's colours saturate at this ratio (and at 0); white is half way, 1.00. */
    static final double MATRIX_COLOUR_MAX = 2.0;

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

    /**
     * Where the value axis should start: NaN for 0 (some bar or interval reaches 0 or below, or the
     * bars differ by more than half the highest, so that 0 hides nothing), else a round number a
     * little below the lowest interval.
     */
    static double axisMin(List<Double> lows, List<Double> highs) {
        double lo = lows.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        double hi = highs.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        if (!(lo > 0) || !(hi > lo) || (hi - lo) / hi > 0.5) {
            return Double.NaN;
        }
        double span = hi - lo;
        double step = Math.pow(10, Math.floor(Math.log10(span)));
        double min = Math.floor((lo - 0.15 * span) / step) * step;
        return min > 0 ? min : Double.NaN;
    }

    private static String niceNumber(double v) {
        return new java.text.DecimalFormat(
                        "#,##0.###", java.text.DecimalFormatSymbols.getInstance(java.util.Locale.ROOT))
                .format(v);
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
        List<List<Double>> ysBySeries = new ArrayList<>();
        List<List<Double>> errorsBySeries = new ArrayList<>();
        List<Double> lows = new ArrayList<>();
        List<Double> highs = new ArrayList<>();
        for (Map.Entry<String, Map<String, ResultRow>> series : byLock.entrySet()) {
            List<Double> ys = new ArrayList<>();
            List<Double> errors = new ArrayList<>();
            for (String group : groups) {
                ResultRow row = series.getValue().get(group);
                double y = row == null ? 0.0 : value.applyAsDouble(row);
                double e = row == null || error == null ? 0.0 : error.applyAsDouble(row);
                e = Double.isFinite(e) ? e : 0.0;
                ys.add(y);
                errors.add(e);
                if (row != null) {
                    lows.add(y - e);
                    highs.add(y + e);
                }
            }
            ysBySeries.add(ys);
            errorsBySeries.add(errors);
        }
        double axisMin = axisMin(lows, highs);
        String fullTitle = Double.isNaN(axisMin) ? title : title + " [axis from " + niceNumber(axisMin) + ", not 0]";
        CategoryChart chart = new CategoryChartBuilder()
                .width(Math.max(Math.max(900, 160 * groups.size() * byLock.size()), 8 * fullTitle.length()))
                .height(560)
                .title(fullTitle)
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
        if (!Double.isNaN(axisMin)) {
            chart.getStyler().setYAxisMin(axisMin);
        }
        int i = 0;
        for (String lock : byLock.keySet()) {
            String name = "-".equals(lock) ? "result" : lock;
            if (error != null) {
                chart.addSeries(name, groups, ysBySeries.get(i), errorsBySeries.get(i));
            } else {
                chart.addSeries(name, groups, ysBySeries.get(i));
            }
            i++;
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return file;
    }
}
