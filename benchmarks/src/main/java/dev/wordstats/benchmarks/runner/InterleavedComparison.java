package dev.wordstats.benchmarks.runner;

import dev.wordstats.benchmarks.runner.ComparisonFigures.CaseFigures;
import dev.wordstats.benchmarks.runner.ComparisonFigures.Kind;
import dev.wordstats.benchmarks.runner.ComparisonFigures.LockFigures;
import dev.wordstats.benchmarks.runner.ComparisonFigures.Sample;
import dev.wordstats.benchmarks.runner.ComparisonFigures.Verdict;
import dev.wordstats.comparison.RunOrder;
import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.lock.LockType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.RunnerException;

/**
 * A lock comparison a user can trust on a noisy machine ({@code --interleave N}): every lock of a
 * bench runs one JMH fork, then the next lock, and so on; that is one repeat, and the order is
 * rotated by one lock each repeat, so a slow spell of the machine, or the first fork's place, hits
 * every lock alike. A lock's ratio to the reference ({@code --against}, the non-fair
 * {@code ReentrantLock} by default) is taken within each repeat; the figure is the median of the
 * repeats with their range, and a lock is called faster or slower only when every repeat agrees
 * (else "no measurable difference").
 *
 * <p>Each repeat also runs the serial floor (unless {@code --no-floor}): the reference lock with
 * one thread, which bounds what any lock could reach here ({@link ComparisonFigures}).
 *
 * <p>Into the output folder: {@code comparison.md} (the command, the machine, the load average, a
 * table per case), {@code interleaved.csv} (every run of every repeat) and each run's JMH JSON
 * under {@code jmh/}. The Markdown goes to standard output too.
 */
final class InterleavedComparison {

    private InterleavedComparison() {}

    static int run(CommandLine line, String arguments, Map<String, Object> machine)
            throws IOException, RunnerException {
        Path configFile = line.configs().getFirst();
        BenchConfig config = line.smoke() ? BenchConfig.read(configFile).smoke() : BenchConfig.read(configFile);
        Path out = line.out();
        Path jmhDir = out.resolve("jmh");
        Files.createDirectories(jmhDir);
        String reference = line.against();
        List<BenchConfig.Bench> benches = config.benches().stream()
                .filter(b -> !b.payload().skipped())
                .filter(b -> line.only() == null || line.only().equals(b.name()))
                .toList();
        if (benches.isEmpty()) {
            throw new IllegalArgumentException(
                    "no bench to run in " + configFile + (line.only() == null ? "" : " named " + line.only()));
        }
        for (BenchConfig.Bench bench : benches) {
            List<String> locks = locksOf(bench, line.locks());
            for (String lock : locks) {
                // a typo fails here, before any run, naming the lock
                if (!runnable(bench.kind()).contains(lock)) {
                    throw new IllegalArgumentException(
                            "bench " + bench.name() + " (" + bench.kind().simpleName() + ") cannot run '" + lock
                                    + "'; it runs " + runnable(bench.kind()));
                }
            }
            if (!locks.contains(reference)) {
                throw new IllegalArgumentException("bench " + bench.name() + " does not run the reference lock "
                        + reference + " (--against); its locks: " + locks);
            }
        }
        Instant started = Instant.now();
        String loadBefore = MachineDescription.loadAverage();
        System.out.printf(
                "== %s: %s, %d repeats interleaved, ratios to %s -> %s%n== load average before: %s%n",
                configFile, config.title(), line.interleave(), reference, out.toAbsolutePath(), loadBefore);

        List<Sample> samples = new ArrayList<>();
        int expected = 0;
        for (int repeat = 1; repeat <= line.interleave(); repeat++) {
            for (BenchConfig.Bench bench : benches) {
                List<String> order = RunOrder.of(locksOf(bench, line.locks()), repeat - 1);
                System.out.printf("%n== repeat %d/%d, %s: %s%n", repeat, line.interleave(), bench.name(), order);
                int position = 0;
                for (String lock : order) {
                    expected++;
                    run(
                            samples,
                            repeat,
                            position++,
                            Kind.LOCK,
                            bench,
                            bench.payload().forRun(List.of(lock), null, null, null),
                            jmhDir,
                            lock);
                }
                if (line.floor() && bench.kind() == BenchmarkKind.CONTENTION && !oneThread(bench.payload())) {
                    BenchConfig.Payload p = bench.payload();
                    List<String> ref = List.of(reference);
                    run(
                            samples,
                            repeat,
                            position++,
                            Kind.FLOOR_ALL,
                            bench,
                            p.forRun(ref, 1, null, null),
                            jmhDir,
                            "floor");
                    if (positive(p.beforeCpuTokens()) || positive(p.yieldsBefore())) {
                        run(
                                samples,
                                repeat,
                                position,
                                Kind.FLOOR_CS,
                                bench,
                                p.forRun(ref, 1, 0, 0),
                                jmhDir,
                                "floor-cs");
                    }
                }
            }
        }
        String loadAfter = MachineDescription.loadAverage();
        int carriers = CarrierPinning.schedulerParallelism(); // the forks run on this machine too
        List<CaseFigures> cases = ComparisonFigures.of(samples, reference, carriers);
        String title = config.title() == null ? String.valueOf(configFile.getFileName()) : config.title();
        List<RegimeMatrix.Row> matrix = RegimeMatrix.of(samples, carriers);
        // No chart when neither reference ran: every cell would be empty
        Path chart = RegimeMatrix.hasRatios(matrix)
                ? Charts.matrix(CommandLine.presetName(configFile), matrix, out.resolve(MATRIX_CHART))
                : null;
        String markdown = markdown(
                title,
                System.getProperty("bench.command", "BenchRunner " + arguments),
                String.valueOf(machine.get("summary")),
                started + " to " + Instant.now(),
                loadBefore,
                loadAfter,
                line.interleave(),
                reference,
                carriers,
                cases,
                matrix,
                PooledRatios.of(samples));
        Path report = out.resolve("comparison.md");
        Files.writeString(report, markdown);
        Path csv = out.resolve("interleaved.csv");
        Files.writeString(csv, csv(samples));
        System.out.printf(
                "%n%s%n== wrote %s, %s, %s and every run's JMH JSON in %s%n",
                markdown,
                report,
                csv,
                chart == null
                        ? "no matrix chart (neither " + String.join(" nor ", RegimeMatrix.REFERENCES) + " ran)"
                        : chart,
                jmhDir);

        if (line.verify()) {
            List<String> problems = problems(samples, expected, cases);
            if (chart != null && (!Files.isRegularFile(chart) || Files.size(chart) == 0)) {
                problems.add("no chart " + chart);
            }
            problems.forEach(p -> System.out.println("== verify: FAILED: " + p));
            if (!problems.isEmpty()) {
                return 1;
            }
            System.out.printf(
                    "== verify: OK (%d runs, %d cases, comparison.md, interleaved.csv)%n", expected, cases.size());
        }
        return 0;
    }

    /**
     * The locks a bench compares: {@code chosen} (--locks) if given, less the bounds of other benchmarks
     * ({@link BenchmarkKind#bounds()}) this bench cannot run; else its {@code locks}; else every lock type.
     */
    static List<String> locksOf(BenchConfig.Bench bench, List<String> chosen) {
        List<String> locks = chosen != null
                ? chosen.stream()
                        .filter(l -> bench.kind().bounds().contains(l) || !anyBound(l))
                        .toList()
                : bench.payload().locks();
        return locks == null || locks.isEmpty()
                ? Arrays.stream(LockType.values()).map(Enum::name).toList()
                : locks;
    }

    /** Whether {@code lock} is a bound of some benchmark. */
    private static boolean anyBound(String lock) {
        return Arrays.stream(BenchmarkKind.values()).anyMatch(k -> k.bounds().contains(lock));
    }

    /** What a bench of {@code kind} can run: every lock type, and its bounds. */
    static List<String> runnable(BenchmarkKind kind) {
        List<String> names =
                new ArrayList<>(Arrays.stream(LockType.values()).map(Enum::name).toList());
        names.addAll(kind.bounds());
        return names;
    }

    /** One thread: the lock is never contended, and the serial floor would be the reference's own run. */
    private static boolean oneThread(BenchConfig.Payload payload) {
        return payload.threads() != null && payload.threads() == 1;
    }

    private static boolean positive(Integer value) {
        return value != null && value > 0;
    }

    /** Runs one JMH fork of {@code payload} and adds its results as samples of {@code kind}. */
    private static void run(
            List<Sample> samples,
            int repeat,
            int position,
            Kind kind,
            BenchConfig.Bench bench,
            BenchConfig.Payload payload,
            Path jmhDir,
            String what)
            throws RunnerException {
        BenchConfig.Bench one = new BenchConfig.Bench(bench.name(), bench.benchmark(), payload);
        Path json = jmhDir.resolve(bench.name() + "-r" + repeat + "-" + what + ".json");
        for (RunResult result :
                JmhRuns.runWaitingForJmhLock(JmhOptions.of(one, json).build())) {
            samples.add(new Sample(repeat, position, kind, ResultRows.row(one, result)));
        }
    }

    /** The chart of the regime matrix, beside comparison.md. */
    static final String MATRIX_CHART = "matrix.png";

    /** The report without the matrix table (a comparison of one case needs none). */
    static String markdown(
            String title,
            String command,
            String machine,
            String when,
            String loadBefore,
            String loadAfter,
            int repeats,
            String reference,
            int carriers,
            List<CaseFigures> cases) {
        return markdown(
                title,
                command,
                machine,
                when,
                loadBefore,
                loadAfter,
                repeats,
                reference,
                carriers,
                cases,
                List.of(),
                List.of());
    }

    /**
     * The report: how it was measured, then (with more than one case) the matrix, every case in one
     * table ({@link RegimeMatrix}) with its chart and the ratios pooled over its rows of one unit
     * ({@link PooledRatios}), then a table per case with every figure.
     */
    static String markdown(
            String title,
            String command,
            String machine,
            String when,
            String loadBefore,
            String loadAfter,
            int repeats,
            String reference,
            int carriers,
            List<CaseFigures> cases,
            List<RegimeMatrix.Row> matrix,
            List<PooledRatios.Pooled> pooled) {
        StringBuilder md = new StringBuilder();
        md.append("# ").append(title).append(": interleaved comparison\n\n");
        md.append("- Command: `").append(command).append("`\n");
        md.append("- Machine: ").append(machine).append('\n');
        md.append("- When: ")
                .append(when)
                .append("; load average before ")
                .append(loadBefore)
                .append(", after ")
                .append(loadAfter)
                .append('\n');
        md.append("- Method: ")
                .append(repeats)
                .append(" repeats; in each, every lock runs one JMH fork, in an order")
                .append(" rotated by one lock per repeat. A ratio is a lock's throughput over ")
                .append(reference)
                .append("'s in the same repeat (> 1: faster); each figure is the median of the")
                .append(" repeats (min–max); a fork's throughput is from the median of its measured iterations,")
                .append(" not JMH's score (their mean), so a slow spell of the host in part of a fork does not")
                .append(" move it. A lock is called faster or slower only when every repeat agrees,")
                .append(" else \"no measurable difference\". Jain, cross-node, longest wait, p99 and the carrier")
                .append(" figures are each the mean over a fork's measured rounds, then the median over the")
                .append(" repeats. The longest wait to the reference's is taken within each repeat too, and")
                .append(
                        " called shorter or longer only when every repeat agrees. Carriers busy: CPUs' worth of time the carrier threads ran; carriers waiting:")
                .append(" the share of their time they were runnable but not on a CPU (Linux schedstat): preempted")
                .append(" by other threads or processes, or woken and not yet running. A round's longest wait rises")
                .append(" with that share whatever the lock; \"quiet rounds\" are those whose carriers waited")
                .append(" less than 1% of their time, and the figure is the median over a fork's quiet")
                .append(" rounds, then over the repeats, \"in N\" quiet rounds in all.\n");
        md.append("- Serial floor: ")
                .append(reference)
                .append(" with one thread (and without the outside work), ")
                .append("per repeat; the best any lock could reach is min(floor without outside work, ")
                .append(carriers)
                .append(" carriers x floor with it), and the bound is that over ")
                .append(reference)
                .append("'s throughput in the same repeat: no lock can gain more here.\n");
        if (matrix.size() > 1 && RegimeMatrix.hasRatios(matrix)) {
            md.append("\n## Every case: ratios to ")
                    .append(String.join(" and ", RegimeMatrix.REFERENCES))
                    .append("\n\n")
                    .append(RegimeMatrix.markdown(matrix))
                    .append("\n![ratio to the better JDK lock, per case and lock](")
                    .append(MATRIX_CHART)
                    .append(")\n");
            String pooledTable = PooledRatios.markdown(pooled);
            if (!pooledTable.isEmpty()) {
                md.append("\n## Pooled over the rows of one unit\n\n").append(pooledTable);
            }
        }
        for (CaseFigures c : cases) {
            md.append("\n## ").append(c.bench());
            if (!c.params().isEmpty()) {
                md.append(" ").append(c.params());
            }
            md.append("\n\n");
            boolean waits = c.locks().stream().anyMatch(l -> l.waitMaxMs().present());
            boolean quiet = waits && c.locks().stream().anyMatch(l -> l.quietRounds() > 0);
            boolean carrierTimes =
                    c.locks().stream().anyMatch(l -> l.carrierWaitPct().present());
            List<String> header = new ArrayList<>(
                    List.of("lock", c.unit() + "/s", "ratio to " + reference, "verdict", "Jain", "cross-node %"));
            if (waits) {
                header.addAll(List.of("longest wait ms", "longest wait to " + reference, "p99 wait µs"));
            }
            if (quiet) {
                header.add("longest wait, quiet rounds ms");
            }
            if (carrierTimes) {
                header.addAll(List.of("carriers busy (CPUs)", "carriers waiting %"));
            }
            tableRow(md, header);
            md.append("|---|---:|---:|---|")
                    .append("---:|".repeat(header.size() - 4))
                    .append('\n');
            for (LockFigures l : c.locks()) {
                List<String> cells = new ArrayList<>(List.of(
                        l.lock(),
                        l.throughput().text("%.0f"),
                        l.ratio().text("%.2f"),
                        l.verdict().toString(),
                        l.fairness().text("%.2f"),
                        l.crossNodePct().text("%.1f")));
                if (waits) {
                    cells.addAll(List.of(
                            l.waitMaxMs().text("%.1f"),
                            waitToReference(l),
                            l.waitP99Us().text("%.0f")));
                }
                if (quiet) {
                    cells.add(
                            l.quietRounds() == 0
                                    ? "no quiet round"
                                    : l.waitMaxQuietMs().text("%.1f") + " in " + l.quietRounds());
                }
                if (carrierTimes) {
                    cells.addAll(List.of(
                            l.carrierBusyCpus().text("%.2f"), l.carrierWaitPct().text("%.1f")));
                }
                tableRow(md, cells);
            }
            if (c.bound().present()) {
                md.append("\nSerial floor: at most ")
                        .append(c.floorThroughput().text("%.0f"))
                        .append(' ')
                        .append(c.unit())
                        .append("/s for any lock; bound ")
                        .append(c.bound().text("%.2f"))
                        .append(" x ")
                        .append(reference)
                        .append(".\n");
            }
        }
        return md.toString();
    }

    /** The longest wait over the reference's: ratio and verdict, "reference" for the reference itself. */
    private static String waitToReference(LockFigures l) {
        String verdict = l.waitVerdict();
        if (verdict.isEmpty() || verdict.equals(Verdict.REFERENCE.toString())) {
            return verdict.isEmpty() ? "n/a" : verdict;
        }
        return l.waitMaxRatio().text("%.2f") + ", " + verdict;
    }

    /** One Markdown table row: {@code | a | b | c |}. */
    private static void tableRow(StringBuilder md, List<String> cells) {
        md.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }

    /** The secondary results the CSV has a column for, in column order. */
    private static final List<String> CSV_SECONDARY = List.of(
            "fairness",
            "crossNodePct",
            "waitMaxUs",
            "waitP99Us",
            "waitMaxUsQuiet",
            "quietRounds",
            "carrierBusyCpus",
            "carrierWaitPct",
            "readsPerSec",
            "writesPerSec");

    static String csv(List<Sample> samples) {
        List<String> header = new ArrayList<>(List.of(
                "repeat", "position", "kind", "bench", "params", "lock", "score", "scoreUnit", "throughput", "unit"));
        header.addAll(CSV_SECONDARY);
        List<List<String>> records = new ArrayList<>();
        for (Sample s : samples) {
            ResultRow r = s.row();
            List<String> fields = new ArrayList<>(List.of(
                    Integer.toString(s.repeat()),
                    Integer.toString(s.position()),
                    s.kind().name().toLowerCase(Locale.ROOT),
                    r.bench(),
                    r.params().toString(),
                    r.lock(),
                    number(r.score()),
                    r.scoreUnit(),
                    number(r.throughput()),
                    r.unit()));
            for (String name : CSV_SECONDARY) {
                fields.add(number(r.secondary().get(name)));
            }
            records.add(fields);
        }
        return CsvFiles.text(header, records);
    }

    private static String number(Double value) {
        return value == null || value.isNaN() ? "" : String.format(Locale.ROOT, "%.4f", value);
    }

    /** What --verify finds wrong: a run without results, a non-positive throughput, a lock without ratios. */
    static List<String> problems(List<Sample> samples, int expectedLockRuns, List<CaseFigures> cases) {
        List<String> problems = new ArrayList<>();
        long lockRuns = samples.stream().filter(s -> s.kind() == Kind.LOCK).count();
        if (lockRuns < expectedLockRuns) {
            problems.add("only " + lockRuns + " lock results from " + expectedLockRuns + " runs");
        }
        for (Sample s : samples) {
            if (!(s.row().throughput() > 0)) {
                problems.add("non-positive throughput: " + s);
            }
        }
        for (CaseFigures c : cases) {
            for (LockFigures l : c.locks()) {
                if (l.ratio().count() < 2) {
                    problems.add(c.bench() + " " + l.lock() + ": fewer than 2 ratios");
                }
            }
        }
        return problems;
    }
}
