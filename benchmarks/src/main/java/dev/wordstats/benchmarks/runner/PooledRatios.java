package dev.wordstats.benchmarks.runner;

import dev.wordstats.benchmarks.runner.ComparisonFigures.Kind;
import dev.wordstats.benchmarks.runner.ComparisonFigures.Sample;
import dev.wordstats.benchmarks.runner.ComparisonFigures.Verdict;
import dev.wordstats.comparison.SignTest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.commons.math3.stat.StatUtils;

/**
 * Each lock's ratios to each reference of {@link RegimeMatrix#REFERENCES}, pooled over every row of one
 * unit (the counting rows, say): the geometric mean of the ratios taken within each repeat of each row,
 * with a percentile bootstrap interval. A row's verdict needs every one of its few repeats on one side,
 * so on a noisy host a lock a few percent off its reference is "no measurable difference" in every row
 * while most of its ratios lie on one side; the pooled figure says so, and how sure it is. The rows weigh
 * alike and are the matrix's, not a sample of workloads: it sums up the table, nothing wider.
 *
 * <p>The interval resamples the (row, repeat) pairs with replacement ({@link #RESAMPLES} times, a fixed
 * seed, so a report is reproducible from its CSV) and takes the 2.5th and 97.5th percentiles of the
 * resampled geometric means. Faster or slower only when the interval lies wholly above or below 1.
 */
final class PooledRatios {

    /** Bootstrap resamples of the pairs. */
    static final int RESAMPLES = 2000;

    /** The bootstrap's seed: the same CSV gives the same interval. */
    private static final long SEED = 20261127L;

    /**
     * One lock against one reference over the rows of one unit.
     *
     * @param unit what the rows' throughput counts
     * @param rows how many rows have both the lock and the reference
     * @param lock the lock type or lock-free store
     * @param reference the reference lock
     * @param ratios the lock's throughput over the reference's, one per (row, repeat) with both
     * @param geomean the geometric mean of {@code ratios}
     * @param low the bootstrap interval's lower end
     * @param high its upper end
     */
    record Pooled(
            String unit,
            int rows,
            String lock,
            String reference,
            List<Double> ratios,
            double geomean,
            double low,
            double high) {

        /** Faster or slower when the interval lies wholly on one side of 1. */
        Verdict verdict() {
            if (lock.equals(reference)) {
                return Verdict.REFERENCE;
            }
            return low > 1 ? Verdict.FASTER : high < 1 ? Verdict.SLOWER : Verdict.NO_MEASURABLE_DIFFERENCE;
        }

        /** How many of the ratios are below 1. */
        long below() {
            return SignTest.of(ratios).below();
        }

        /** The sign test's p of the pairs: how unlikely their split above and below 1 is by chance. */
        double signTestP() {
            return SignTest.of(ratios).p();
        }
    }

    private PooledRatios() {}

    /**
     * The pooled ratios of the lock runs in {@code samples}, for each unit that at least two rows (cases)
     * share, each lock against each reference that ran; in the order first met.
     */
    static List<Pooled> of(List<Sample> samples) {
        // unit -> case -> lock -> repeat -> throughput
        Map<String, Map<String, Map<String, Map<Integer, Double>>>> byUnit = new LinkedHashMap<>();
        for (Sample s : samples) {
            if (s.kind() == Kind.LOCK) {
                byUnit.computeIfAbsent(s.row().unit(), u -> new LinkedHashMap<>())
                        .computeIfAbsent(ComparisonFigures.caseKey(s.row()), c -> new LinkedHashMap<>())
                        .computeIfAbsent(s.row().lock(), l -> new TreeMap<>())
                        .put(s.repeat(), s.row().throughput());
            }
        }
        List<Pooled> pooled = new ArrayList<>();
        byUnit.forEach((unit, cases) -> {
            if (cases.size() < 2) {
                return; // one row: the matrix's own cell says it
            }
            List<String> locks = new ArrayList<>();
            cases.values()
                    .forEach(byLock -> byLock.keySet().stream()
                            .filter(l -> !locks.contains(l))
                            .forEach(locks::add));
            for (String lock : locks) {
                for (String reference : RegimeMatrix.REFERENCES) {
                    List<Double> ratios = new ArrayList<>();
                    int rows = 0;
                    for (Map<String, Map<Integer, Double>> byLock : cases.values()) {
                        Map<Integer, Double> mine = byLock.get(lock);
                        Map<Integer, Double> theirs = byLock.get(reference);
                        if (mine == null || theirs == null) {
                            continue;
                        }
                        int before = ratios.size();
                        mine.forEach((repeat, t) -> {
                            Double against = theirs.get(repeat);
                            if (against != null && against > 0 && t > 0) {
                                ratios.add(t / against);
                            }
                        });
                        rows += ratios.size() > before ? 1 : 0;
                    }
                    if (rows >= 2) {
                        pooled.add(pool(unit, rows, lock, reference, ratios));
                    }
                }
            }
        });
        return pooled;
    }

    /** The geometric mean of {@code ratios} and its bootstrap interval. */
    static Pooled pool(String unit, int rows, String lock, String reference, List<Double> ratios) {
        double[] logs = ratios.stream().mapToDouble(Math::log).toArray();
        int n = logs.length;
        double[] means = new double[RESAMPLES];
        SplittableRandom random = new SplittableRandom(SEED);
        double[] resample = new double[n];
        for (int b = 0; b < RESAMPLES; b++) {
            for (int i = 0; i < n; i++) {
                resample[i] = logs[random.nextInt(n)];
            }
            means[b] = StatUtils.mean(resample);
        }
        // the resampled means at the interval's ends, the nearest of them on the outside
        Arrays.sort(means);
        double low = Math.exp(means[(int) Math.floor(0.025 * (RESAMPLES - 1))]);
        double high = Math.exp(means[(int) Math.ceil(0.975 * (RESAMPLES - 1))]);
        double geomean = StatUtils.geometricMean(
                ratios.stream().mapToDouble(Double::doubleValue).toArray());
        return new Pooled(unit, rows, lock, reference, List.copyOf(ratios), geomean, low, high);
    }

    /** The section's table in Markdown, or "" when nothing pools (no unit with two rows and a reference). */
    static String markdown(List<Pooled> pooled) {
        if (pooled.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder();
        md.append("Each lock's ratio to each reference, taken within each repeat of each row, pooled over the")
                .append(" rows of one unit: the geometric mean of the pairs, with a 95% bootstrap interval (")
                .append(RESAMPLES)
                .append(" resamples of the pairs, fixed seed); `+` or `−` when the interval lies wholly above or")
                .append(" below 1, `=` otherwise; and in how many pairs the lock was below the reference, with the")
                .append(" two-sided sign test's p of that split. Rows")
                .append(" weigh alike: this sums up the table above, not every workload.\n\n");
        md.append("| rows | lock |");
        RegimeMatrix.REFERENCES.forEach(r -> md.append(" over ").append(r).append(" |"));
        md.append("\n|---|---|")
                .append("---|".repeat(RegimeMatrix.REFERENCES.size()))
                .append('\n');
        Map<String, Map<String, Map<String, Pooled>>> table = new LinkedHashMap<>(); // unit -> lock -> reference
        pooled.forEach(p -> table.computeIfAbsent(p.unit(), u -> new LinkedHashMap<>())
                .computeIfAbsent(p.lock(), l -> new LinkedHashMap<>())
                .put(p.reference(), p));
        table.forEach((unit, byLock) -> {
            int rows = byLock.values().stream()
                    .flatMap(m -> m.values().stream())
                    .mapToInt(Pooled::rows)
                    .max()
                    .orElse(0);
            byLock.forEach((lock, byReference) -> {
                md.append("| ")
                        .append(unit)
                        .append(" (")
                        .append(rows)
                        .append(" rows) | ")
                        .append(lock)
                        .append(" |");
                for (String reference : RegimeMatrix.REFERENCES) {
                    Pooled p = byReference.get(reference);
                    md.append(' ').append(p == null ? "–" : cellText(p)).append(" |");
                }
                md.append('\n');
            });
        });
        return md.toString();
    }

    /**
     * "0.903 (0.799–1.014) =, below in 24 of 36 (sign test p 0.0652)" (three decimals: an interval's end of
     * 0.997 is below 1); "ref" for the reference itself.
     */
    static String cellText(Pooled p) {
        if (p.verdict() == Verdict.REFERENCE) {
            return "ref";
        }
        String mark = switch (p.verdict()) {
            case FASTER -> "+";
            case SLOWER -> "−";
            default -> "=";
        };
        return String.format(
                Locale.ROOT,
                "%.3f (%.3f–%.3f) %s, below in %d of %d (sign test p %.3g)",
                p.geomean(),
                p.low(),
                p.high(),
                mark,
                p.below(),
                p.ratios().size(),
                p.signTestP());
    }
}
