package dev.wordstats.loadtests.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The comparison report: a Markdown table (report.md) and two bar charts (throughput.png,
 * latency.png) drawn headless with XChart.
 */
final class ComparisonReport {

    /** One lock type's run. */
    record Row(String lock, GatlingRun.Result gatling, LockMetrics lock_, long peakServiceFds) {
        String verdict() {
            return gatling.passed() ? "pass" : "FAIL (exit " + gatling.exitCode() + ")";
        }
    }

    private ComparisonReport() {}

    static String table(List<Row> rows) {
        StringBuilder md = new StringBuilder();
        md.append(
                "| lock | requests/s | p50 ms | p99 ms | lock wait p99 | lock wait max | cross-node handoffs | slow-path share | failed requests | peak service fds | run |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Row row : rows) {
            GatlingRun.Result g = row.gatling();
            LockMetrics m = row.lock_();
            md.append("| ")
                    .append(row.lock())
                    .append(" | ")
                    .append(fmt(g.requestsPerSecond(), "%.1f"))
                    .append(" | ")
                    .append(fmt(g.p50Millis(), "%.0f"))
                    .append(" | ")
                    .append(fmt(g.p99Millis(), "%.0f"))
                    .append(" | ")
                    .append(m.waitP99Text())
                    .append(" | ")
                    .append(duration(m.waitMaxSeconds()))
                    .append(" | ")
                    .append(fmt(m.crossNodeHandoffs(), "%.0f"))
                    .append(" | ")
                    .append(percent(m.slowPathShare()))
                    .append(" | ")
                    .append(fmt(g.failed(), "%.0f"))
                    .append(" | ")
                    .append(row.peakServiceFds() < 0 ? "n/a" : Long.toString(row.peakServiceFds()))
                    .append(" | ")
                    .append(row.verdict())
                    .append(" |\n");
        }
        return md.toString();
    }

    static void write(Path dir, String header, List<Row> rows) throws IOException {
        Files.createDirectories(dir);
        String md = header + "\n" + table(rows) + "\n"
                + "Lock wait is the time from asking for a stripe lock to getting it (service histogram"
                + " `wordstats_lock_wait_seconds`, p99 interpolated in its buckets as Prometheus does; \"≤ x\" when it"
                + " falls in the lowest bucket, which cannot resolve it further); slow-path share is"
                + " slow-path acquisitions over all acquisitions. Charts: throughput.png, latency.png.\n";
        Files.writeString(dir.resolve("report.md"), md);
        chart(
                dir.resolve("throughput"),
                "Throughput by lock type",
                "requests/s",
                rows,
                List.of(series("requests/s", r -> r.gatling().requestsPerSecond())));
        chart(
                dir.resolve("latency"),
                "Latency by lock type",
                "milliseconds",
                rows,
                List.of(
                        series("HTTP p50", r -> r.gatling().p50Millis()),
                        series("HTTP p99", r -> r.gatling().p99Millis()),
                        series("lock wait p99", r -> scale(r.lock_().waitP99Seconds(), 1000))));
    }

    private record Series(String name, ToDoubleFunction<Row> value) {}

    private static Series series(String name, Function<Row, OptionalDouble> value) {
        return new Series(name, row -> value.apply(row).orElse(0));
    }

    private static void chart(Path file, String title, String yTitle, List<Row> rows, List<Series> series)
            throws IOException {
        CategoryChart chart = new CategoryChartBuilder()
                .width(900)
                .height(500)
                .title(title)
                .xAxisTitle("lock type")
                .yAxisTitle(yTitle)
                .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setLabelsVisible(true);
        List<String> locks = rows.stream().map(Row::lock).toList();
        for (Series s : series) {
            chart.addSeries(
                    s.name(),
                    locks,
                    rows.stream().map(r -> (Number) s.value().applyAsDouble(r)).toList());
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static OptionalDouble scale(OptionalDouble value, double factor) {
        return value.isPresent() ? OptionalDouble.of(value.getAsDouble() * factor) : value;
    }

    private static String fmt(OptionalDouble value, String format) {
        return value.isPresent() ? String.format(Locale.ROOT, format, value.getAsDouble()) : "n/a";
    }

    private static String percent(OptionalDouble share) {
        return share.isPresent() ? String.format(Locale.ROOT, "%.1f %%", share.getAsDouble() * 100) : "n/a";
    }

    /** Seconds shown in the unit that reads best: ns, µs or ms. */
    static String duration(OptionalDouble seconds) {
        if (seconds.isEmpty()) {
            return "n/a";
        }
        double s = seconds.getAsDouble();
        if (s < 1e-6) {
            return String.format(Locale.ROOT, "%.0f ns", s * 1e9);
        }
        if (s < 1e-3) {
            return String.format(Locale.ROOT, "%.1f µs", s * 1e6);
        }
        return String.format(Locale.ROOT, "%.2f ms", s * 1e3);
    }
}
