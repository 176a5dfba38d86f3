package dev.wordstats.loadtests.compare;

import dev.wordstats.comparison.Spread;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * The comparison report: {@code report.md} (per lock the median and min–max of every figure over
 * the repeats, a verdict per figure, every run with a link to its Gatling HTML report), one chart
 * per figure with min–max error bars ({@link SpreadChart}) and {@code runs.csv} ({@link RunsCsv}).
 */
final class ComparisonReport {

    /**
     * One figure of the report.
     *
     * @param name column and chart title
     * @param file chart file name without extension
     * @param format number format in the table
     * @param higherIsBetter the verdict's direction
     * @param value the figure of one run, in the unit the table shows
     */
    record Figure(
            String name,
            String file,
            String format,
            boolean higherIsBetter,
            Function<RunRecord, OptionalDouble> value) {}

    static final Figure THROUGHPUT = new Figure(
            "requests/s", "throughput", "%.0f", true, r -> r.gatling().requestsPerSecond());

    static final Figure STEADY_THROUGHPUT = new Figure(
            "requests/s, second half",
            "throughput-second-half",
            "%.0f",
            true,
            r -> r.gatling().steadyRequestsPerSecond());

    static final Figure SERVICE_CPU = new Figure(
            "service CPU µs/request",
            "service-cpu",
            "%.1f",
            false,
            r -> scale(r.metrics().serviceCpuPerRequest(r.gatling().requests()), 1e6));

    static final Figure HTTP_P99 = new Figure(
            "HTTP p99 ms", "http-p99", "%.1f", false, r -> r.gatling().p99Millis());

    static final Figure HTTP_P999 = new Figure(
            "HTTP p99.9 ms", "http-p999", "%.1f", false, r -> r.gatling().p999Millis());

    static final Figure LOCK_WAIT_P99 = new Figure(
            "lock wait p99 µs (slow path)",
            "lock-wait-p99",
            "%.2f",
            false,
            r -> scale(r.metrics().waitP99Seconds(), 1e6));

    static final Figure LOCK_WAIT_MAX = new Figure(
            "lock wait max ms",
            "lock-wait-max",
            "%.2f",
            false,
            r -> scale(r.metrics().waitMaxSeconds(), 1e3));

    static final Figure LOCK_WAIT_MAX_BUCKET = new Figure(
            "lock wait max bucket ms",
            "lock-wait-max-bucket",
            "%.2f",
            false,
            r -> scale(r.metrics().waitMaxBucketSeconds(), 1e3));

    static final List<Figure> FIGURES = List.of(
            THROUGHPUT,
            STEADY_THROUGHPUT,
            new Figure(
                    "HTTP p50 ms", "http-p50", "%.1f", false, r -> r.gatling().p50Millis()),
            HTTP_P99,
            HTTP_P999,
            SERVICE_CPU,
            LOCK_WAIT_P99,
            LOCK_WAIT_MAX,
            LOCK_WAIT_MAX_BUCKET,
            new Figure(
                    "slow-path share %",
                    "slow-path-share", "%.2f", false, r -> scale(r.metrics().slowPathShare(), 100)),
            new Figure(
                    "cross-node handoffs %",
                    "cross-node-share", "%.1f", false, r -> scale(r.metrics().crossNodeShare(), 100)));

    /** The figures compared repeat by repeat ({@link PairedRatio}): throughput, CPU, and the tails. */
    static final List<Figure> PAIRED =
            List.of(THROUGHPUT, STEADY_THROUGHPUT, SERVICE_CPU, HTTP_P99, HTTP_P999, LOCK_WAIT_P99, LOCK_WAIT_MAX);

    static final Figure READ_THROUGHPUT = new Figure(
            "read requests/s (service)",
            "read-throughput",
            "%.0f",
            true,
            r -> r.server().reads().perSecond(r.measuredSeconds()));

    static final Figure WRITE_THROUGHPUT = new Figure(
            "write requests/s (service)",
            "write-throughput",
            "%.0f",
            true,
            r -> r.server().writes().perSecond(r.measuredSeconds()));

    static final Figure READ_P99 = new Figure(
            "read p99 ms (service)",
            "read-p99",
            "%.2f",
            false,
            r -> scale(r.server().reads().p99Seconds(), 1e3));

    static final Figure LOOKUP_P99 = new Figure(
            "lookup p99 ms (service)",
            "lookup-p99",
            "%.2f",
            false,
            r -> scale(r.server().lookups().p99Seconds(), 1e3));

    static final Figure TOP_P99 = new Figure(
            "top list p99 ms (service)",
            "top-p99",
            "%.2f",
            false,
            r -> scale(r.server().top().p99Seconds(), 1e3));

    static final Figure WRITE_P99 = new Figure(
            "write p99 ms (service)",
            "write-p99",
            "%.2f",
            false,
            r -> scale(r.server().writes().p99Seconds(), 1e3));

    static final Figure READ_LOCK_WAIT_P99 = new Figure(
            "read lock wait p99 µs (slow path)",
            "read-lock-wait-p99",
            "%.2f",
            false,
            r -> scale(r.metrics().readWaits().p99Seconds(), 1e6));

    static final Figure READ_LOCK_WAIT_MAX = new Figure(
            "read lock wait max ms",
            "read-lock-wait-max",
            "%.2f",
            false,
            r -> scale(r.metrics().readWaits().maxSeconds(), 1e3));

    static final Figure WRITE_LOCK_WAIT_P99 = new Figure(
            "write lock wait p99 µs (slow path)",
            "write-lock-wait-p99",
            "%.2f",
            false,
            r -> scale(r.metrics().writeWaits().p99Seconds(), 1e6));

    static final Figure WRITE_LOCK_WAIT_MAX = new Figure(
            "write lock wait max ms",
            "write-lock-wait-max",
            "%.2f",
            false,
            r -> scale(r.metrics().writeWaits().maxSeconds(), 1e3));

    /**
     * Reads and writes apart, after {@link #FIGURES} in the tables and paired by repeat too: only in a
     * comparison with a run that has reads ({@link ServerRequests#hasReads()}), so that a load of writes
     * alone keeps its columns.
     */
    static final List<Figure> READ_WRITE = List.of(
            READ_THROUGHPUT,
            WRITE_THROUGHPUT,
            READ_P99,
            LOOKUP_P99,
            TOP_P99,
            WRITE_P99,
            READ_LOCK_WAIT_P99,
            READ_LOCK_WAIT_MAX,
            WRITE_LOCK_WAIT_P99,
            WRITE_LOCK_WAIT_MAX);

    /** {@link #FIGURES}, and {@link #READ_WRITE} when a run has reads. */
    static List<Figure> figures(List<RunRecord> runs) {
        return hasReads(runs) ? concat(FIGURES, READ_WRITE) : FIGURES;
    }

    /** {@link #PAIRED}, and {@link #READ_WRITE} when a run has reads. */
    static List<Figure> pairedFigures(List<RunRecord> runs) {
        return hasReads(runs) ? concat(PAIRED, READ_WRITE) : PAIRED;
    }

    static boolean hasReads(List<RunRecord> runs) {
        return runs.stream().anyMatch(r -> r.server().hasReads());
    }

    private static List<Figure> concat(List<Figure> first, List<Figure> second) {
        List<Figure> all = new ArrayList<>(first);
        all.addAll(second);
        return List.copyOf(all);
    }

    private ComparisonReport() {}

    /**
     * Per figure ({@link #figures(List)}), per lock (in the given order): the spread over the repeats that
     * passed.
     */
    static Map<Figure, Map<String, Spread>> spreads(List<String> locks, List<RunRecord> runs) {
        Map<Figure, Map<String, Spread>> out = new LinkedHashMap<>();
        for (Figure figure : figures(runs)) {
            Map<String, Spread> byLock = new LinkedHashMap<>();
            for (String lock : locks) {
                byLock.put(
                        lock,
                        Spread.of(runs.stream()
                                .filter(r -> r.lock().equals(lock) && r.passed())
                                .map(figure.value())
                                .toList()));
            }
            out.put(figure, byLock);
        }
        return out;
    }

    static Map<Figure, Verdict> verdicts(Map<Figure, Map<String, Spread>> spreads) {
        Map<Figure, Verdict> out = new LinkedHashMap<>();
        spreads.forEach(
                (figure, byLock) -> out.put(figure, Verdict.of(figure.name(), figure.higherIsBetter(), byLock)));
        return out;
    }

    /** The summary table: one row per lock, "median (min–max)" per figure, and the runs that passed. */
    static String summaryTable(List<String> locks, List<RunRecord> runs, Map<Figure, Map<String, Spread>> spreads) {
        StringBuilder md = new StringBuilder("| lock | runs passed |");
        StringBuilder rule = new StringBuilder("|---|---:|");
        for (Figure f : spreads.keySet()) {
            md.append(' ').append(f.name()).append(" |");
            rule.append("---:|");
        }
        md.append('\n').append(rule).append('\n');
        for (String lock : locks) {
            long all = runs.stream().filter(r -> r.lock().equals(lock)).count();
            long passed = runs.stream()
                    .filter(r -> r.lock().equals(lock) && r.passed())
                    .count();
            md.append("| ")
                    .append(lock)
                    .append(" | ")
                    .append(passed)
                    .append('/')
                    .append(all)
                    .append(" |");
            for (Figure f : spreads.keySet()) {
                md.append(' ').append(spreads.get(f).get(lock).text(f.format())).append(" |");
            }
            md.append('\n');
        }
        return md.toString();
    }

    static String verdictList(Map<Figure, Verdict> verdicts) {
        StringBuilder md = new StringBuilder();
        verdicts.forEach((figure, verdict) -> md.append("- **")
                .append(figure.name())
                .append("** (")
                .append(figure.higherIsBetter() ? "higher" : "lower")
                .append(" is better): ")
                .append(verdict.text())
                .append('\n'));
        return md.toString();
    }

    /**
     * Every lock after the first against the first, repeat by repeat, for the {@link #pairedFigures(List)} figures:
     * the ratios' median (min–max), how many are above and below 1, the sign test's p and its verdict. Empty with
     * one lock.
     */
    static String pairedTable(List<String> locks, List<RunRecord> runs) {
        if (locks.size() < 2) {
            return "";
        }
        String reference = locks.getFirst();
        StringBuilder md = new StringBuilder("| figure | lock / " + reference
                + " | median (min–max) | above 1 | below 1 | sign test p | verdict |\n"
                + "|---|---|---:|---:|---:|---:|---|\n");
        for (Figure figure : pairedFigures(runs)) {
            for (String lock : locks.subList(1, locks.size())) {
                PairedRatio pair = PairedRatio.of(lock, reference, runs, figure.value());
                md.append("| ")
                        .append(figure.name())
                        .append(" | ")
                        .append(lock)
                        .append(" | ")
                        .append(pair.spreadText())
                        .append(" | ")
                        .append(pair.above())
                        .append(" of ")
                        .append(pair.ratios().size())
                        .append(" | ")
                        .append(pair.below())
                        .append(" | ")
                        .append(pair.ratios().isEmpty() ? "n/a" : String.format(Locale.ROOT, "%.3f", pair.signTestP()))
                        .append(" | ")
                        .append(pair.verdict(figure.higherIsBetter()))
                        .append(" |\n");
            }
        }
        return md.toString();
    }

    /** Every run in the order they ran, each with a link to its Gatling report. */
    static String runsTable(List<RunRecord> runs, Path reportDir) {
        StringBuilder md = new StringBuilder(
                "| repeat | # | lock | requests/s | HTTP p99 ms | lock wait p99 | failed requests | peak service fds |"
                        + " run | Gatling report |\n|---:|---:|---|---:|---:|---:|---:|---:|---|---|\n");
        for (RunRecord r : runs) {
            GatlingRun.Result g = r.gatling();
            md.append("| ")
                    .append(r.repeat())
                    .append(" | ")
                    .append(r.position())
                    .append(" | ")
                    .append(r.lock())
                    .append(" | ")
                    .append(fmt(g.requestsPerSecond(), "%.0f"))
                    .append(" | ")
                    .append(fmt(g.p99Millis(), "%.0f"))
                    .append(" | ")
                    .append(r.metrics().waitP99Text())
                    .append(" | ")
                    .append(fmt(g.failed(), "%.0f"))
                    .append(" | ")
                    .append(r.peakServiceFds() < 0 ? "n/a" : Long.toString(r.peakServiceFds()))
                    .append(" | ")
                    .append(r.passed() ? "pass" : "FAIL (exit " + g.exitCode() + ")")
                    .append(" | ")
                    .append(r.gatlingReport()
                            .map(p -> "[" + r.lock() + " #" + r.repeat() + "]("
                                    + reportDir.relativize(p).toString().replace('\\', '/') + ")")
                            .orElse("none"))
                    .append(" |\n");
        }
        return md.toString();
    }

    /** Writes report.md, runs.csv and the charts; returns report.md. */
    static Path write(Path dir, String header, List<String> locks, List<RunRecord> runs) throws IOException {
        Files.createDirectories(dir);
        Map<Figure, Map<String, Spread>> spreads = spreads(locks, runs);
        Map<Figure, Verdict> verdicts = verdicts(spreads);
        RunsCsv.write(runs, dir);
        List<String> charts = new ArrayList<>();
        for (Figure figure : spreads.keySet()) {
            Map<String, Spread> byLock = spreads.get(figure);
            if (byLock.values().stream().anyMatch(Spread::present)) {
                SpreadChart.write(
                        dir.resolve(figure.file() + ".png"),
                        figure.name() + " by lock: median, bars from min to max over the repeats",
                        figure.name(),
                        byLock);
                charts.add("![" + figure.name() + "](" + figure.file() + ".png)");
            }
        }
        String md = header
                + "\n## Per lock: median (min–max) over the repeats\n\n"
                + summaryTable(locks, runs, spreads)
                + "\n## Verdicts\n\nA lock is named better only where its min–max range does not overlap the other's"
                + " (\">\" between measurably different groups, \"≈\" within one); otherwise \"no measurable"
                + " difference\". Failed runs are left out of the figures.\n\n"
                + verdictList(verdicts)
                + paired(locks, runs)
                + "\n## Charts\n\n" + String.join("\n", charts) + "\n"
                + "\n## Every run\n\n"
                + runsTable(runs, dir)
                + "\nEvery figure of every run: [runs.csv](runs.csv). Lock wait is the time from asking for a stripe"
                + " lock to holding it, of the acquisitions that took the slow path (the service's"
                + " `wordstats_lock_wait_seconds{path=\"slow\"}` histogram, p99 interpolated in its buckets as"
                + " Prometheus does; \"≤ x\" when it falls in the lowest bucket, which cannot resolve it further);"
                + " lock wait max is the histogram's `_max` gauge after the run (Micrometer keeps it over a"
                + " window of a minute or two, so it may include the warm-up), max bucket the upper bound of the"
                + " highest bucket that gained a wait during the run (the run's own longest wait is at most that);"
                + " slow-path share is slow-path acquisitions over all acquisitions; cross-node handoffs are the"
                + " acquisitions whose previous owner ran on another NUMA node. Requests/s, second half, is the"
                + " throughput from the middle of the load to its end, from Gatling's progress reports: without"
                + " the start of the run, which is slower by a margin that varies from run to run.\n"
                + (hasReads(runs) ? READ_WRITE_NOTE : "");
        Path report = dir.resolve("report.md");
        Files.writeString(report, md);
        return report;
    }

    /** What the figures of {@link #READ_WRITE} are, below the report of a comparison with reads. */
    static final String READ_WRITE_NOTE = "\nReads and writes apart: the read and write figures are the service's"
            + " own, measured where it answers (without the client's and the loopback's share), from the same two"
            + " scrapes as the lock figures. Reads are `GET /api/words/{word}` (lookups) and `GET /api/words/top`"
            + " (top list), writes `POST /api/texts` and `POST /api/texts/batch`, from the"
            + " `http_server_requests_seconds` histogram, answers with a 2xx status only (the simulations expect"
            + " 200 from all four, so any other answer fails the run); p99 interpolated in its buckets. Their"
            + " requests/s are the requests of the run over the time Gatling's requests/s is over. The read"
            + " lookups include the nothing-lost check's 8. Read and write lock waits are the slow-path waits"
            + " tagged `access=\"read\"` and `access=\"write\"`: the service tags the read sections of a"
            + " reader-writer lock type read and every other section write, so an exclusive lock type has no read"
            + " lock waits (n/a) and its write lock waits hold its reads' sections too.\n";

    private static String paired(List<String> locks, List<RunRecord> runs) {
        if (locks.size() < 2) {
            return "";
        }
        return "\n## Paired by repeat\n\nEach repeat runs the locks back to back, so a slow spell of a shared host"
                + " falls on both runs of a repeat, where it widens both ranges above. Here each lock's figure is"
                + " divided by " + locks.getFirst() + "'s in the same repeat. A difference is named only where a"
                + " two-sided sign test over the repeats gives p < " + PairedRatio.ALPHA + ", which takes at least 6"
                + " repeats. The service's CPU per request is its process CPU time over the requests of the run:"
                + " it tells a run that was slow per request (the lock's cost, or a host whose CPUs ran slow,"
                + " which raises it for every lock alike) from one that got less of the CPUs.\n\n"
                + pairedTable(locks, runs);
    }

    /** {@code value} times {@code factor}; empty stays empty. */
    static OptionalDouble scale(OptionalDouble value, double factor) {
        return value.isPresent() ? OptionalDouble.of(value.getAsDouble() * factor) : value;
    }

    private static String fmt(OptionalDouble value, String format) {
        return value.isPresent() ? String.format(Locale.ROOT, format, value.getAsDouble()) : "n/a";
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
