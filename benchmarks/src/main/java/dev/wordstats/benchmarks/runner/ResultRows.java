package dev.wordstats.benchmarks.runner;

import dev.wordstats.comparison.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.Statistics;

/** JMH's results turned into the runner's {@link ResultRow}s. */
final class ResultRows {

    private ResultRows() {}

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
        double centre = params.getMode() == Mode.SampleTime ? primary.getScore() : forkCentre(primary.getStatistics());
        double throughput = ResultTable.throughput(centre, primary.getScoreUnit(), unitsPerOp);
        double relError = primary.getScoreError() / primary.getScore();
        double throughputError = Double.isFinite(relError) ? throughput * relError : Double.NaN;

        Map<String, Double> secondary = secondaryMeans(result);
        if (params.getMode() == Mode.SampleTime) {
            // A sampled time distribution: its median and fastest sample shrug off preemption.
            secondary.put("sampleP50", primary.getStatistics().getPercentile(50));
            secondary.put("sampleMin", primary.getStatistics().getMin());
        }
        quietRounds(rounds(result), secondary);
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
     * A fork's figure: the median of its measured iterations (with three or more), not JMH's score,
     * their mean. A shared host has spells of seconds in which everything runs much slower; the mean
     * says how much of the fork fell in one, the median what the lock did while at most half of it did.
     */
    static double forkCentre(Statistics iterations) {
        return iterations.getN() >= 3 ? iterations.getPercentile(50) : iterations.getMean();
    }

    /**
     * A round counts as quiet when its carriers were runnable but off their CPUs for less than this
     * share of their time (percent; {@code carrierWaitPct}).
     */
    static final double QUIET_WAITING_PCT = 1.0;

    /**
     * Adds {@code waitMaxUsQuiet}, the median of the longest wait over the quiet rounds (see
     * {@link #QUIET_WAITING_PCT}), and {@code quietRounds}, their number, when waits were timed and
     * the carriers' times measured. A round's longest wait rises with the carriers' waiting share
     * whatever the lock; the quiet rounds show what the lock does when the machine leaves it alone.
     */
    static void quietRounds(List<Map<String, Double>> rounds, Map<String, Double> secondary) {
        List<Double> longest = new ArrayList<>();
        int measured = 0;
        for (Map<String, Double> round : rounds) {
            Double waiting = round.get("carrierWaitPct");
            Double waitMax = round.get("waitMaxUs");
            if (waiting == null || waitMax == null || !(waitMax > 0) || !Double.isFinite(waiting)) {
                continue; // waits not timed, or the carriers' times not measured
            }
            measured++;
            if (waiting < QUIET_WAITING_PCT) {
                longest.add(waitMax);
            }
        }
        if (measured > 0) {
            secondary.put("quietRounds", (double) longest.size());
            Spread spread = Spread.ofDoubles(longest);
            if (spread.present()) {
                secondary.put("waitMaxUsQuiet", spread.median());
            }
        }
    }

    /** Each measured iteration's secondary results, by name, over every fork. */
    static List<Map<String, Double>> rounds(RunResult result) {
        List<Map<String, Double>> rounds = new ArrayList<>();
        for (BenchmarkResult fork : result.getBenchmarkResults()) {
            for (IterationResult iteration : fork.getIterationResults()) {
                Map<String, Double> round = new TreeMap<>();
                iteration
                        .getSecondaryResults()
                        .forEach((name, value) -> round.put(name, ((Result<?>) value).getScore()));
                rounds.add(round);
            }
        }
        return rounds;
    }

    /**
     * The mean over all iterations of all forks of each secondary result. (JMH's own summary of an
     * {@code @AuxCounters(EVENTS)} counter is the sum over iterations; the per-iteration value is
     * what the benchmark set.) Profiler results (gc.alloc.rate.norm, perfnorm's cycles/op...) are
     * secondary results too.
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
}
