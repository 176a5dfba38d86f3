package dev.wordstats.benchmarks.runner;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.wordstats.benchmarks.CpuTokens;
import dev.wordstats.numa.topology.Topology;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs a benchmark configuration ({@link BenchConfig}) through JMH's Java API and writes, into the
 * output folder: {@code results.csv}, {@code results.json} (rows, machine, load, calibration,
 * command), JMH's own JSON per bench ({@code jmh-<bench>.json}), the run log's progress lines on
 * standard output, and PNG charts (throughput per lock per bench, ratio to the best ReentrantLock,
 * wait p99, fairness, cross-node handoffs).
 *
 * <pre>
 * ./mvnw -pl benchmarks -am -Pbench verify -DskipTests -Dbench.config=benchmarks/config/high-contention.json \
 *     -Dbench.out=benchmarks/results/2026-11-23-high-contention
 * </pre>
 *
 * <p>Arguments: {@code --config FILE} (required), {@code --out DIR} (default
 * {@code benchmarks/target/bench-results/<config name>}), {@code --only NAME} (run one bench),
 * {@code --verify} (exit 1 unless every output was written and every score is positive: the CI
 * smoke check). Needs a JDK 25 and the numa-locks flags (see benchmarks/README.md).
 */
public final class BenchRunner {

    private BenchRunner() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        Map<String, String> options = parse(args);
        Path config = Path.of(require(options, "--config"));
        String configName = config.getFileName().toString().replaceFirst("\\.json$", "");
        Path out = Path.of(options.getOrDefault("--out", "benchmarks/target/bench-results/" + configName));
        int status = run(config, out, options.get("--only"), options.containsKey("--verify"));
        System.exit(status);
    }

    static int run(Path configFile, Path out, String only, boolean verify) throws IOException, RunnerException {
        BenchConfig config = BenchConfig.read(configFile);
        Files.createDirectories(out);
        Instant started = Instant.now();
        String loadBefore = loadAverage();
        Map<String, Object> machine = machine();
        System.out.printf(
                "== %s: %s -> %s%n== machine: %s%n== load average before: %s%n",
                configFile, config.title(), out.toAbsolutePath(), machine.get("summary"), loadBefore);

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
                    bench.payload().locks(),
                    bench.payload());
            Path jmhJson = out.resolve("jmh-" + bench.name() + ".json");
            Collection<RunResult> results =
                    runWaitingForJmhLock(options(bench, jmhJson).build());
            jmhFiles.add(jmhJson.getFileName().toString());
            for (RunResult result : results) {
                rows.add(row(bench, result));
            }
            System.out.printf(
                    "== [%d/%d] %s done in %ds%n",
                    index,
                    selected.size(),
                    bench.name(),
                    Duration.between(benchStart, Instant.now()).toSeconds());
        }
        rows = ResultTable.withRatios(rows);

        String loadAfter = loadAverage();
        Path csv = out.resolve("results.csv");
        writeCsv(rows, csv);
        List<Path> charts = Charts.write(
                config.title() == null ? String.valueOf(configFile.getFileName()) : config.title(), rows, out);
        Path json = out.resolve("results.json");
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("title", config.title());
        document.put("config", configFile.toString());
        document.put("command", ProcessHandle.current().info().commandLine().orElse("?"));
        document.put("started", started.toString());
        document.put("finished", Instant.now().toString());
        document.put("loadAverageBefore", loadBefore);
        document.put("loadAverageAfter", loadAfter);
        document.put("machine", machine);
        document.put("benches", selected);
        document.put("rows", rows.stream().map(BenchRunner::jsonRow).toList());
        document.put("jmhResults", jmhFiles);
        document.put(
                "charts", charts.stream().map(p -> p.getFileName().toString()).toList());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), document);

        System.out.printf("%n== results (%s)%n", configFile.getFileName());
        printTable(rows);
        System.out.printf(
                "== wrote %s, %s, %d charts, %d JMH files in %s; load average after: %s%n",
                csv.getFileName(), json.getFileName(), charts.size(), jmhFiles.size(), out, loadAfter);
        return verify ? verify(rows, selected.size(), csv, json, charts) : 0;
    }

    /**
     * Runs JMH; while another JMH run holds the machine-wide JMH lock (two measurements at once
     * would disturb each other), waits and retries, up to {@code bench.lockWaitSeconds} (default
     * 900). The CI smoke run sets {@code -Djmh.ignoreLock=true} instead: it measures nothing.
     */
    static Collection<RunResult> runWaitingForJmhLock(Options options) throws RunnerException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.getLong("bench.lockWaitSeconds", 900));
        while (true) {
            try {
                return new Runner(options).run();
            } catch (RunnerException e) {
                boolean locked = String.valueOf(e.getMessage()).contains("Unable to acquire the JMH lock");
                if (!locked || System.nanoTime() > deadline) {
                    throw e;
                }
                System.out.println("== another JMH run holds the JMH lock; waiting 10 s and retrying");
                try {
                    Thread.sleep(10_000);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    static ChainedOptionsBuilder options(BenchConfig.Bench bench, Path jmhJson) {
        BenchConfig.Payload p = bench.payload();
        ChainedOptionsBuilder builder = new OptionsBuilder()
                .include(bench.kind().includePattern())
                .shouldFailOnError(true)
                .verbosity(VerboseMode.NORMAL)
                .result(jmhJson.toString())
                .resultFormat(ResultFormatType.JSON);
        if (p.forks() != null) {
            builder.forks(p.forks());
        }
        if (p.warmupIterations() != null) {
            builder.warmupIterations(p.warmupIterations());
        }
        if (p.measurementIterations() != null) {
            builder.measurementIterations(p.measurementIterations());
        }
        if (p.locks() != null && !p.locks().isEmpty()) {
            builder.param("lockType", p.locks().toArray(String[]::new));
        }
        param(builder, "actionsCount", p.actionsCount());
        param(builder, "beforeCpuTokens", p.beforeCpuTokens());
        param(builder, "inCpuTokens", p.inCpuTokens());
        param(builder, "yieldsBefore", p.yieldsBefore());
        param(builder, "yieldInCrit", p.yieldInCrit());
        param(builder, "threads", p.threads());
        param(builder, "simulatedNodes", p.simulatedNodes());
        param(builder, "remotePenaltyTokens", p.remotePenaltyTokens());
        if (p.params() != null) {
            p.params().forEach((name, values) -> builder.param(name, values.split(",")));
        }
        // A short wall-clock bound per measured/warm-up time slot keeps AverageTime benches short.
        builder.timeout(org.openjdk.jmh.runner.options.TimeValue.minutes(5));
        return builder;
    }

    private static void param(ChainedOptionsBuilder builder, String name, Object value) {
        if (value != null) {
            builder.param(name, String.valueOf(value));
        }
    }

    static ResultRow row(BenchConfig.Bench bench, RunResult result) {
        var params = result.getParams();
        Map<String, String> values = new TreeMap<>();
        for (String key : params.getParamsKeys()) {
            values.put(key, params.getParam(key));
        }
        String lock = values.remove("lockType");
        String benchmark = params.getBenchmark();
        String[] parts = benchmark.split("\\.");
        String shortName = parts[parts.length - 2] + "." + parts[parts.length - 1];

        Result<?> primary = result.getPrimaryResult();
        String opsParam = bench.kind().opsParam();
        double unitsPerOp = opsParam == null ? 1.0 : Double.parseDouble(values.get(opsParam));
        double throughput = ResultTable.throughput(primary.getScore(), primary.getScoreUnit(), unitsPerOp);
        double relError = primary.getScoreError() / primary.getScore();
        double throughputError = Double.isFinite(relError) ? throughput * relError : Double.NaN;

        Map<String, Double> secondary = secondaryMeans(result);
        if (params.getMode() == Mode.SampleTime) {
            // A sampled time distribution: its median and fastest sample shrug off preemption.
            secondary.put("sampleP50", primary.getStatistics().getPercentile(50));
            secondary.put("sampleMin", primary.getStatistics().getMin());
        }
        Double csNanos = secondary.get("csNanos");
        double efficiency = csNanos == null ? Double.NaN : throughput * csNanos * 1e-9;
        return new ResultRow(
                bench.name(),
                shortName,
                lock == null ? "-" : lock,
                values,
                primary.getScore(),
                primary.getScoreError(),
                primary.getScoreUnit(),
                throughput,
                throughputError,
                bench.kind().unitName(),
                Double.NaN,
                efficiency,
                secondary);
    }

    /**
     * The mean over all iterations of all forks of each secondary result. (JMH's own summary of an
     * {@code @AuxCounters(EVENTS)} counter is the sum over iterations; the per-iteration value is
     * what the benchmark set.)
     */
    static Map<String, Double> secondaryMeans(RunResult result) {
        Map<String, double[]> sums = new TreeMap<>();
        for (BenchmarkResult fork : result.getBenchmarkResults()) {
            for (IterationResult iteration : fork.getIterationResults()) {
                Map<String, ?> secondary = iteration.getSecondaryResults();
                for (Map.Entry<String, ?> entry : secondary.entrySet()) {
                    double[] sum = sums.computeIfAbsent(entry.getKey(), k -> new double[2]);
                    sum[0] += ((Result<?>) entry.getValue()).getScore();
                    sum[1]++;
                }
            }
        }
        Map<String, Double> means = new TreeMap<>();
        sums.forEach((k, v) -> means.put(k, v[0] / v[1]));
        return means;
    }

    static final List<String> SECONDARY_COLUMNS = List.of(
            "waitP50Us", "waitP99Us", "waitMaxUs", "fairness", "crossNodePct", "csNanos", "sampleP50", "sampleMin");

    static void writeCsv(List<ResultRow> rows, Path csv) throws IOException {
        List<String> paramKeys = rows.stream()
                .flatMap(r -> r.params().keySet().stream())
                .distinct()
                .sorted()
                .toList();
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv, StandardCharsets.UTF_8))) {
            List<String> header = new ArrayList<>(List.of("bench", "benchmark", "lock"));
            header.addAll(paramKeys);
            header.addAll(List.of(
                    "score",
                    "scoreError",
                    "scoreUnit",
                    "throughput",
                    "throughputError",
                    "unit",
                    "ratioToBestReentrant",
                    "csEfficiency"));
            header.addAll(SECONDARY_COLUMNS);
            w.println(String.join(",", header));
            for (ResultRow r : rows) {
                List<String> cells = new ArrayList<>(List.of(r.bench(), r.benchmark(), r.lock()));
                for (String key : paramKeys) {
                    cells.add(r.params().getOrDefault(key, ""));
                }
                cells.addAll(List.of(
                        num(r.score()),
                        num(r.scoreError()),
                        r.scoreUnit(),
                        num(r.throughput()),
                        num(r.throughputError()),
                        r.unit() + "/s",
                        num(r.ratioToBestReentrant()),
                        num(r.csEfficiency())));
                for (String key : SECONDARY_COLUMNS) {
                    Double v = r.secondary().get(key);
                    cells.add(v == null ? "" : num(v));
                }
                w.println(String.join(",", cells));
            }
        }
    }

    private static Map<String, Object> jsonRow(ResultRow r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("bench", r.bench());
        m.put("benchmark", r.benchmark());
        m.put("lock", r.lock());
        m.put("params", r.params());
        m.put("score", finite(r.score()));
        m.put("scoreError", finite(r.scoreError()));
        m.put("scoreUnit", r.scoreUnit());
        m.put("throughput", finite(r.throughput()));
        m.put("throughputError", finite(r.throughputError()));
        m.put("throughputUnit", r.unit() + "/s");
        m.put("ratioToBestReentrant", finite(r.ratioToBestReentrant()));
        m.put("csEfficiency", finite(r.csEfficiency()));
        m.put("secondary", r.secondary());
        return m;
    }

    private static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }

    private static String num(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "";
    }

    static void printTable(List<ResultRow> rows) {
        System.out.printf(
                Locale.ROOT,
                "%-28s %-34s %-17s %14s %9s %8s %9s %9s %9s%n",
                "bench",
                "benchmark",
                "lock",
                "throughput/s",
                "±%",
                "ratio",
                "cs-eff",
                "p99(us)",
                "jain");
        for (ResultRow r : rows) {
            Double p99 = r.secondary().get("waitP99Us");
            Double jain = r.secondary().get("fairness");
            System.out.printf(
                    Locale.ROOT,
                    "%-28s %-34s %-17s %14.1f %9s %8s %9s %9s %9s%n",
                    r.bench(),
                    r.benchmark(),
                    r.lock(),
                    r.throughput(),
                    Double.isFinite(r.throughputError())
                            ? String.format(Locale.ROOT, "%.1f", 100 * r.throughputError() / r.throughput())
                            : "-",
                    fmt(r.ratioToBestReentrant(), "%.3f"),
                    fmt(r.csEfficiency(), "%.3f"),
                    p99 == null ? "-" : fmt(p99, "%.1f"),
                    jain == null ? "-" : fmt(jain, "%.3f"));
        }
    }

    private static String fmt(double v, String pattern) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, pattern, v) : "-";
    }

    static int verify(List<ResultRow> rows, int benches, Path csv, Path json, List<Path> charts) throws IOException {
        List<String> problems = new ArrayList<>();
        if (benches == 0) {
            problems.add("no bench ran");
        }
        if (rows.isEmpty()) {
            problems.add("no results");
        }
        rows.stream().filter(r -> !(r.throughput() > 0)).forEach(r -> problems.add("no throughput: " + r));
        for (Path file : List.of(csv, json)) {
            if (!Files.isRegularFile(file) || Files.size(file) == 0) {
                problems.add("missing or empty " + file);
            }
        }
        if (Files.readAllLines(csv).size() != rows.size() + 1) {
            problems.add("CSV has not one line per result");
        }
        if (charts.isEmpty()) {
            problems.add("no chart");
        }
        for (Path chart : charts) {
            if (!Files.isRegularFile(chart) || Files.size(chart) < 1000) {
                problems.add("missing or empty chart " + chart);
            }
        }
        if (problems.isEmpty()) {
            System.out.printf("== verify: OK (%d results, CSV, JSON, %d charts)%n", rows.size(), charts.size());
            return 0;
        }
        problems.forEach(p -> System.out.println("== verify: FAILED: " + p));
        return 1;
    }

    static Map<String, Object> machine() {
        Map<String, Object> m = new LinkedHashMap<>();
        String cpu = cpuModel();
        int cpus = Runtime.getRuntime().availableProcessors();
        String jdk = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
        m.put("cpuModel", cpu);
        m.put("availableProcessors", cpus);
        m.put(
                "os",
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"));
        m.put("jdk", jdk);
        String topology;
        try {
            topology = Topology.detect().summary();
        } catch (RuntimeException e) {
            topology = "unknown: " + e;
        }
        m.put("topology", topology);
        m.put("consumeCpuNanosPer1000Tokens", Math.round(CpuTokens.nanosFor(1000, 200) * 10) / 10.0);
        m.put(
                "summary",
                cpus + " CPUs, " + cpu + ", " + jdk + "; " + topology + "; consumeCPU(1000) = "
                        + m.get("consumeCpuNanosPer1000Tokens") + " ns");
        return m;
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        return System.getProperty("os.arch");
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if ("--verify".equals(arg)) {
                options.put(arg, "true");
            } else if (arg.startsWith("--") && i + 1 < args.length) {
                options.put(arg, args[++i]);
            } else {
                throw new IllegalArgumentException(
                        "usage: BenchRunner --config FILE [--out DIR] [--only BENCH] [--verify]; " + "bad argument '"
                                + arg + "'");
            }
        }
        return options;
    }

    private static String require(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null) {
            throw new IllegalArgumentException(
                    name + " is required: BenchRunner --config FILE [--out DIR] [--only BENCH] [--verify]");
        }
        return value;
    }
}
