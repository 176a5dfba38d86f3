package dev.wordstats.benchmarks.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.RunnerException;

/**
 * Runs benchmark configurations ({@link BenchConfig}) through JMH's Java API. Per config, into its
 * output folder: {@code results.csv} and {@code results.json} ({@link ResultFiles}), JMH's own JSON
 * per bench ({@code jmh-<bench>.json}), PNG charts with JMH's confidence intervals as error bars
 * ({@link Charts}), the progress and a results table on standard output ({@link ConsoleTable}).
 * With {@code --all} (or {@code --report}) also one {@code report.md} over every preset run, with
 * the machine description ({@link MarkdownReport}, {@link MachineDescription}).
 *
 * <pre>
 * ./mvnw -pl benchmarks -am -Pbench verify -DskipTests -Dbench.config=benchmarks/config/high-contention.json \
 *     -Dbench.out=benchmarks/results/DATE-high-contention
 * benchmarks/run.sh --all                      # every preset, one report
 * </pre>
 *
 * <p>With {@code --interleave N} it compares the locks of one config instead, rounds interleaved and
 * repeated, with ratios to a reference lock and their spread ({@link InterleavedComparison}).
 *
 * <p>Arguments: see {@link CommandLine}. {@code --verify} exits 1 unless every output was written and
 * every score is positive (the CI smoke check). Needs a JDK 25 and the numa-locks flags (see
 * benchmarks/README.md).
 */
public final class BenchRunner {

    private BenchRunner() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        CommandLine line = CommandLine.parse(args);
        System.exit(run(line, String.join(" ", args)));
    }

    static int run(CommandLine line, String arguments) throws IOException, RunnerException {
        Map<String, Object> machine = MachineDescription.describe();
        System.out.printf("== machine: %s%n", machine.get("summary"));
        if (line.interleave() > 0) {
            return InterleavedComparison.run(line, arguments, machine);
        }
        List<PresetRun> presets = new ArrayList<>();
        int status = 0;
        for (Path config : line.configs()) {
            // several presets: one folder each under --out, the report beside them
            Path out = line.configs().size() > 1 ? line.out().resolve(CommandLine.presetName(config)) : line.out();
            PresetRun preset;
            Instant started = Instant.now();
            String loadBefore = MachineDescription.loadAverage();
            try {
                preset = runPreset(config, out, line.only(), line.smoke(), machine);
            } catch (IOException | RunnerException | RuntimeException e) {
                if (!line.report()) {
                    throw e;
                }
                // one preset that cannot run (a profiler this host lacks...) does not lose the others
                System.out.printf("== %s FAILED: %s%n", config, e);
                preset = PresetRun.failed(
                        config,
                        out,
                        loadBefore,
                        Duration.between(started, Instant.now()).toSeconds(),
                        e);
                status = 1;
            }
            presets.add(preset);
            if (line.verify() && preset.failure() == null) {
                List<String> problems = OutputCheck.problems(
                        preset.rows(),
                        (int) preset.rows().stream()
                                .map(ResultRow::bench)
                                .distinct()
                                .count(),
                        out.resolve("results.csv"),
                        out.resolve("results.json"),
                        preset.charts());
                problems.forEach(p -> System.out.println("== verify: FAILED: " + p));
                if (problems.isEmpty()) {
                    System.out.printf(
                            "== verify: OK (%d results, CSV, JSON, %d charts)%n",
                            preset.rows().size(), preset.charts().size());
                } else {
                    status = 1;
                }
            }
        }
        if (line.report()) {
            Path report = MarkdownReport.write(line.out(), "benchmarks/run.sh " + arguments, machine, presets);
            System.out.printf("== report: %s%n", report.toAbsolutePath());
            if (line.verify() && (Files.size(report) == 0 || presets.isEmpty())) {
                System.out.println("== verify: FAILED: empty report");
                status = 1;
            }
        }
        return status;
    }

    static PresetRun runPreset(Path configFile, Path out, String only, boolean smoke, Map<String, Object> machine)
            throws IOException, RunnerException {
        BenchConfig config = smoke ? BenchConfig.read(configFile).smoke() : BenchConfig.read(configFile);
        Files.createDirectories(out);
        Instant started = Instant.now();
        String loadBefore = MachineDescription.loadAverage();
        System.out.printf(
                "== %s: %s -> %s%n== load average before: %s%n",
                configFile, config.title(), out.toAbsolutePath(), loadBefore);

        List<BenchConfig.Bench> selected = config.benches().stream()
                .filter(b -> !b.payload().skipped())
                .filter(b -> only == null || only.equals(b.name()))
                .toList();
        List<ResultRow> rows = new ArrayList<>();
        List<String> jmhFiles = new ArrayList<>();
        int index = 0;
        for (BenchConfig.Bench bench : selected) {
            index++;
            Instant benchStart = Instant.now();
            System.out.printf(
                    "%n== [%d/%d] %s (%s) locks=%s payload=%s%n",
                    index,
                    selected.size(),
                    bench.name(),
                    bench.kind().simpleName(),
                    bench.payload().locks() == null
                            ? "every LockType"
                            : bench.payload().locks(),
                    bench.payload());
            Path jmhJson = out.resolve("jmh-" + bench.name() + ".json");
            Collection<RunResult> results =
                    JmhRuns.runWaitingForJmhLock(JmhOptions.of(bench, jmhJson).build());
            jmhFiles.add(jmhJson.getFileName().toString());
            for (RunResult result : results) {
                rows.add(ResultRows.row(bench, result));
            }
            System.out.printf(
                    "== [%d/%d] %s done in %ds%n",
                    index,
                    selected.size(),
                    bench.name(),
                    Duration.between(benchStart, Instant.now()).toSeconds());
        }
        rows = ResultTable.withRatios(rows);

        String loadAfter = MachineDescription.loadAverage();
        String title = config.title() == null ? String.valueOf(configFile.getFileName()) : config.title();
        ResultFiles.writeCsv(rows, out.resolve("results.csv"));
        List<Path> charts = Charts.write(title, rows, out);
        Map<String, Object> context = new LinkedHashMap<>();
        context.put("title", config.title());
        context.put("config", configFile.toString());
        context.put("command", ProcessHandle.current().info().commandLine().orElse("?"));
        context.put("started", started.toString());
        context.put("finished", Instant.now().toString());
        context.put("loadAverageBefore", loadBefore);
        context.put("loadAverageAfter", loadAfter);
        context.put("machine", machine);
        context.put("benches", selected);
        context.put("jmhResults", jmhFiles);
        context.put(
                "charts", charts.stream().map(p -> p.getFileName().toString()).toList());
        ResultFiles.writeJson(out.resolve("results.json"), context, rows);

        System.out.printf("%n== results (%s)%n", configFile.getFileName());
        System.out.print(ConsoleTable.format(rows));
        System.out.printf(
                "== wrote results.csv, results.json, %d charts, %d JMH files in %s; load average after: %s%n",
                charts.size(), jmhFiles.size(), out, loadAfter);
        return new PresetRun(
                CommandLine.presetName(configFile),
                title,
                configFile,
                out,
                rows,
                charts,
                loadBefore,
                loadAfter,
                Duration.between(started, Instant.now()).toSeconds(),
                null);
    }
}
