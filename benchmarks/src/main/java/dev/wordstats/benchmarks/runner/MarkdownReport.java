package dev.wordstats.benchmarks.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One Markdown report over several presets: how it was run, the machine, then per preset its
 * command, load, a table of every result (throughput with JMH's 99.9% confidence interval) and its
 * charts. Paths are relative to the report, so the folder can be moved or packed whole.
 */
final class MarkdownReport {

    private MarkdownReport() {}

    static String render(String command, Map<String, Object> machine, List<PresetRun> presets, Path reportDir) {
        StringBuilder md = new StringBuilder("# Benchmark report\n\n");
        md.append("- Command: `").append(command).append("`\n");
        md.append("- Written: ").append(Instant.now()).append('\n');
        md.append("- Presets: ")
                .append(String.join(", ", presets.stream().map(PresetRun::name).toList()))
                .append("\n\n");
        md.append("How to read: throughput is units per second (higher is better), shown as the mean ± the"
                + " half-width of JMH's 99.9% confidence interval over all measured iterations of all forks;"
                + " two locks whose intervals overlap are not measurably different on this run. The ratio is"
                + " to the better ReentrantLock of the same parameters. Wait p99 and Jain's fairness index"
                + " need recordWaits=true; the throughput presets turn it off so no clock is read per"
                + " acquisition. Carriers waiting is the share of the carrier threads' time they were runnable"
                + " but not on a CPU (Linux schedstat): preempted by other threads or processes, or just woken;"
                + " a run with a high share was slowed by the machine, whatever the lock."
                + " Charts' value axes may not start at 0 (their title says so) so that small"
                + " differences show; the error bars say whether they are real.\n\n");
        md.append(MachineDescription.markdown(machine)).append('\n');
        for (PresetRun preset : presets) {
            md.append("## ")
                    .append(preset.name())
                    .append(": ")
                    .append(preset.title())
                    .append("\n\n");
            md.append("- Command: `benchmarks/run.sh ")
                    .append(preset.config().toString().replace('\\', '/'))
                    .append("`\n");
            md.append(String.format(
                    Locale.ROOT,
                    "- Took %d s; load average before %s, after %s%n",
                    preset.seconds(),
                    preset.loadBefore(),
                    preset.loadAfter()));
            if (preset.failure() != null) {
                md.append("- **Did not finish**: ").append(preset.failure()).append("\n\n");
                continue;
            }
            md.append("- Files: [")
                    .append(rel(reportDir, preset.dir().resolve("results.csv")))
                    .append("](")
                    .append(rel(reportDir, preset.dir().resolve("results.csv")))
                    .append("), [results.json](")
                    .append(rel(reportDir, preset.dir().resolve("results.json")))
                    .append(")\n\n");
            md.append(table(preset.rows())).append('\n');
            for (Path chart : preset.charts()) {
                md.append("![")
                        .append(chart.getFileName())
                        .append("](")
                        .append(rel(reportDir, chart))
                        .append(")\n");
            }
            md.append('\n');
        }
        return md.toString();
    }

    static Path write(Path reportDir, String command, Map<String, Object> machine, List<PresetRun> presets)
            throws IOException {
        Files.createDirectories(reportDir);
        Path file = reportDir.resolve("report.md");
        Files.writeString(file, render(command, machine, presets, reportDir));
        return file;
    }

    /** One preset's results as a Markdown table; parameters that vary within the preset get columns. */
    static String table(List<ResultRow> rows) {
        Set<String> varying = varyingParams(rows);
        List<String> columns = new ArrayList<>(List.of("bench", "lock"));
        columns.addAll(varying);
        columns.addAll(List.of(
                "throughput/s ± 99.9% CI", "±%", "ratio", "wait p99 µs", "Jain", "cross-node %", "carriers waiting %"));
        StringBuilder md = new StringBuilder("| " + String.join(" | ", columns) + " |\n|");
        for (int i = 0; i < columns.size(); i++) {
            md.append(i < 2 + varying.size() ? "---|" : "---:|");
        }
        md.append('\n');
        for (ResultRow r : rows) {
            List<String> cells = new ArrayList<>(List.of(r.groupLabel(), r.lock()));
            varying.forEach(k -> cells.add(r.params().getOrDefault(k, "")));
            cells.add(
                    Double.isFinite(r.throughputError())
                            ? String.format(Locale.ROOT, "%,.0f ± %,.0f", r.throughput(), r.throughputError())
                            : String.format(Locale.ROOT, "%,.0f", r.throughput()));
            cells.add(
                    Double.isFinite(r.throughputError())
                            ? String.format(Locale.ROOT, "%.1f", 100 * r.throughputError() / r.throughput())
                            : "-");
            cells.add(ConsoleTable.fmt(r.ratioToBestReentrant(), "%.3f"));
            cells.add(secondary(r, "waitP99Us", "%.1f"));
            cells.add(secondary(r, "fairness", "%.3f"));
            cells.add(secondary(r, "crossNodePct", "%.1f"));
            cells.add(secondary(r, "carrierWaitPct", "%.1f"));
            md.append("| ").append(String.join(" | ", cells)).append(" |\n");
        }
        return md.toString();
    }

    private static Set<String> varyingParams(List<ResultRow> rows) {
        Map<String, Set<String>> values = new LinkedHashMap<>();
        rows.forEach(r -> r.params()
                .forEach((k, v) ->
                        values.computeIfAbsent(k, x -> new LinkedHashSet<>()).add(v)));
        Set<String> varying = new LinkedHashSet<>();
        values.forEach((k, v) -> {
            if (v.size() > 1) {
                varying.add(k);
            }
        });
        return varying;
    }

    private static String secondary(ResultRow r, String key, String format) {
        Double v = r.secondary().get(key);
        return v == null ? "-" : ConsoleTable.fmt(v, format);
    }

    private static String rel(Path from, Path to) {
        return from.toAbsolutePath()
                .normalize()
                .relativize(to.toAbsolutePath().normalize())
                .toString()
                .replace('\\', '/');
    }
}
